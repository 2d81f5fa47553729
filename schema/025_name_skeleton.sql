-- 025: names that look alike. name_skel is the confusable skeleton of the
-- name (cgi/text.c: lower case, NFKC, then ICU's skeleton of UTS #39),
-- unique, so "admın" (dotless ı) cannot register beside "admin", nor
-- "раураl" in Cyrillic beside "paypal".
--
-- The names already there get theirs from st_name_skeleton(), which the
-- program registers on every connection before it migrates. Names that
-- already look alike stay as they are: the oldest keeps the plain
-- skeleton, each later one its skeleton, a 0x1F byte (no name contains
-- it) and its id; so the migration never fails, nobody is renamed or
-- locked out, and a new name like any of them is refused. A name without
-- a skeleton (a row a tool wrote without it) is NULL, which the unique
-- index lets be.
--
-- name_key is libunistring's lower case now (store.c folded by hand
-- before); the two differ only for İ (U+0130: ı by hand, i and U+0307
-- now). Those keys are written anew where the new key is free (so a user
-- named İlker still finds their account at login).
ALTER TABLE users ADD COLUMN name_skel TEXT;

UPDATE users SET name_key = st_name_key(name)
WHERE name_key <> st_name_key(name)
	AND NOT EXISTS (SELECT 1 FROM users o WHERE o.name_key = st_name_key(users.name));

WITH s AS (SELECT id, st_name_skeleton(name) AS k FROM users),
	r AS (SELECT id, k, row_number() OVER (PARTITION BY k ORDER BY id) AS n FROM s
	      WHERE k <> '')
UPDATE users SET name_skel = CASE WHEN r.n = 1 THEN r.k ELSE r.k || char(31) || users.id END
FROM r WHERE r.id = users.id;

CREATE UNIQUE INDEX users_name_skel ON users(name_skel);

PRAGMA user_version = 25;
