-- 001_init.sql — the first schema of Spieltisch.
--
-- Applied by store_open() inside one transaction. Every migration ends by
-- setting PRAGMA user_version to its own number; store_open() checks that.
-- Times are milliseconds since the epoch (UTC). Booleans are 0/1.

-- Accounts. name_key is the case-folded name (store.c folds ASCII and the
-- Latin letters a name may contain), so "Anna" and "ANNA" cannot both exist.
CREATE TABLE users (
	id         INTEGER PRIMARY KEY,
	name       TEXT    NOT NULL,
	name_key   TEXT    NOT NULL UNIQUE,
	pwhash     TEXT    NOT NULL,
	created_at INTEGER NOT NULL
);

-- Logged-in browsers. Only the SHA-256 of the cookie token is kept.
CREATE TABLE sessions (
	token_hash BLOB    PRIMARY KEY CHECK (length(token_hash) = 32),
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	csrf       TEXT    NOT NULL,
	expires    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_expires ON sessions(expires);
CREATE INDEX sessions_user ON sessions(user_id);

-- Failed logins per (folded) name, for slowing down guessing.
CREATE TABLE login_failures (
	id       INTEGER PRIMARY KEY,
	name_key TEXT    NOT NULL,
	at       INTEGER NOT NULL
);
CREATE INDEX login_failures_name_at ON login_failures(name_key, at);

-- A table: one game, its options, its seats and the match played there.
-- status: 0 open (waiting for players), 1 playing, 2 finished.
-- version grows by one on every change a poll should see; next_deadline
-- lets the poll notice a passed window without decoding the state.
CREATE TABLE tables (
	id            INTEGER PRIMARY KEY,
	game          TEXT    NOT NULL,
	options       TEXT    NOT NULL DEFAULT '',
	nseats        INTEGER NOT NULL CHECK (nseats BETWEEN 1 AND 10),
	status        INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 2),
	version       INTEGER NOT NULL DEFAULT 1,
	next_deadline INTEGER NOT NULL DEFAULT 0,
	epoch         INTEGER NOT NULL DEFAULT 0,
	epoch_version INTEGER NOT NULL DEFAULT 0,
	party_no      INTEGER NOT NULL DEFAULT -1,
	nparties      INTEGER NOT NULL DEFAULT 1 CHECK (nparties >= 1),
	first_dealer  INTEGER NOT NULL DEFAULT 0,
	created_by    INTEGER REFERENCES users(id) ON DELETE SET NULL,
	created_at    INTEGER NOT NULL
);
-- The lobby: open tables, newest first.
CREATE INDEX tables_status ON tables(status, id);

-- Who sits where. A user holds at most one seat per table.
CREATE TABLE seats (
	table_id  INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
	seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 9),
	user_id   INTEGER NOT NULL REFERENCES users(id),
	PRIMARY KEY (table_id, seat),
	UNIQUE (table_id, user_id)
) WITHOUT ROWID;
-- "My tables".
CREATE INDEX seats_user ON seats(user_id, table_id);

-- One party (Partie) of a table's match: how it was dealt and where it stands.
-- scores: the final points per seat, comma-separated, once over.
CREATE TABLE parties (
	id         INTEGER PRIMARY KEY,
	table_id   INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
	number     INTEGER NOT NULL CHECK (number >= 0),
	seed       INTEGER NOT NULL,
	dealer     INTEGER NOT NULL,
	snapshot   BLOB    NOT NULL,
	over       INTEGER NOT NULL DEFAULT 0 CHECK (over IN (0, 1)),
	scores     TEXT    NOT NULL DEFAULT '',
	created_at INTEGER NOT NULL,
	UNIQUE (table_id, number)
);

-- The move log: setup plus these steps rebuild the snapshot.
-- seat -1 with text 'tick' is a deadline applied; version is the table
-- version the step produced.
CREATE TABLE moves (
	party   INTEGER NOT NULL REFERENCES parties(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL CHECK (seq >= 1),
	seat    INTEGER NOT NULL CHECK (seat BETWEEN -1 AND 9),
	text    TEXT    NOT NULL,
	at      INTEGER NOT NULL,
	version INTEGER NOT NULL,
	PRIMARY KEY (party, seq)
) WITHOUT ROWID;
-- "Has this seat moved since version v" (double submits).
CREATE INDEX moves_party_seat ON moves(party, seat, version);

PRAGMA user_version = 1;
