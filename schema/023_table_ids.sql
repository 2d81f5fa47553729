-- 023: a table's number is never given out twice. `tables.id` is an
-- INTEGER PRIMARY KEY without AUTOINCREMENT, so SQLite gives a new row the
-- largest id + 1: when the newest table was deleted (its last person left
-- it), the next table got its number again, and an old invitation link
-- opened a stranger's table. Rebuilding `tables` with AUTOINCREMENT would
-- mean dropping it under the foreign keys of every table that refers to
-- it; instead, the highest number ever given out is kept here, the
-- trigger raises it on every insert, and STMT_TABLE_CREATE takes the next
-- one from it. Tournaments and users are never deleted: their ids do not
-- come back.
CREATE TABLE id_high (
	name TEXT    PRIMARY KEY,
	last INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO id_high (name, last) VALUES ('tables', coalesce((SELECT max(id) FROM tables), 0));

CREATE TRIGGER tables_id_high AFTER INSERT ON tables BEGIN
	UPDATE id_high SET last = NEW.id WHERE name = 'tables' AND last < NEW.id;
END;

PRAGMA user_version = 23;
