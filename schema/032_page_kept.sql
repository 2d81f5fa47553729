-- 032: three values the table page read in subqueries at every read, kept
-- in the table's row by the store calls that change them (as 031 keeps
-- seats_taken): the table's tournament as "id round number name" (NULL
-- outside one; written by store_ttable_add, the one call that puts a table
-- into a tournament, whose name never changes), whether the table's chat
-- has a message (written by store_chat_add; chat messages are never
-- deleted) and the host's name (written by store_table_create; a table's
-- creator and a user's name never change). PostgreSQL builds every
-- subquery's state at every execution of a statement: the three cost the
-- page statement about 0.1M instructions a read (docs/benchmarks.md,
-- "PostgreSQL: the page's plans, statements and kept values"); the host's
-- name is in every listing of tables as well. And a session's row keeps
-- its user's name and language (written by store_session_create and
-- store_user_set_lang): the session's read, at every logged-in request,
-- needs no join with users. A seat's row keeps its user's and its
-- claimer's names (written by the seat's taking, the claim and the
-- claim's taking effect): the page's seats need no lookups.
ALTER TABLE tables ADD COLUMN tourney TEXT;
ALTER TABLE tables ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN has_chat INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET tourney = (SELECT x.tournament || ' ' || x.round || ' ' || x.number || ' ' ||
	o.name FROM tournament_tables x JOIN tournaments o ON o.id = x.tournament
	WHERE x.table_id = tables.id),
	host = coalesce((SELECT u.name FROM users u WHERE u.id = tables.created_by), ''),
	has_chat = CASE WHEN EXISTS (SELECT 1 FROM chat_messages c WHERE c.table_id = tables.id)
	THEN 1 ELSE 0 END;
ALTER TABLE sessions ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN lang TEXT NOT NULL DEFAULT '';
UPDATE sessions SET name = (SELECT u.name FROM users u WHERE u.id = sessions.user_id),
	lang = (SELECT u.lang FROM users u WHERE u.id = sessions.user_id);
ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN claimer TEXT NOT NULL DEFAULT '';
UPDATE seats SET name = coalesce((SELECT u.name FROM users u WHERE u.id = seats.user_id), ''),
	claimer = coalesce((SELECT c.name FROM users c WHERE c.id = seats.claimed_by), '');

PRAGMA user_version = 32;
