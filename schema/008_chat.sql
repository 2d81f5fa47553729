-- 008: the table chat. Short messages of the people seated at a table
-- (1–300 characters, checked by cgi/chat.c; the CHECK below is a backstop
-- in bytes), shown to everyone who looks at the table. A message bumps the
-- table's version and public_version (pages reload) but never its epoch:
-- it makes no page stale. The rate limit counts a user's messages per
-- table and time (chat_messages_rate).
CREATE TABLE chat_messages (
	id       INTEGER PRIMARY KEY,
	table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
	user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	text     TEXT    NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
	at       INTEGER NOT NULL
);
-- The newest messages of a table (the rowid is the order).
CREATE INDEX chat_messages_table ON chat_messages(table_id, id);
CREATE INDEX chat_messages_rate ON chat_messages(table_id, user_id, at);

-- Whom a user does not want to read: per (user, muted user), on every table.
CREATE TABLE chat_mutes (
	user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	muted_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	at       INTEGER NOT NULL,
	PRIMARY KEY (user_id, muted_id)
) WITHOUT ROWID;

PRAGMA user_version = 8;
