-- 010: inviting a user by name to a table, and the rematch. An invitation
-- shows on the invitee's "Meine Tische" and in their feed until they sit
-- at the table or it starts without them. tables.rematch: the table opened
-- for the next match of a finished one (every seated person was invited).
CREATE TABLE invitations (
	id       INTEGER PRIMARY KEY,
	table_id INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
	from_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	to_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	at       INTEGER NOT NULL,
	UNIQUE (table_id, to_id)
);
CREATE INDEX invitations_to ON invitations(to_id, id);
ALTER TABLE tables ADD COLUMN rematch INTEGER REFERENCES tables(id) ON DELETE SET NULL;

PRAGMA user_version = 10;
