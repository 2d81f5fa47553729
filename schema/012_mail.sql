-- 012: e-mail notices (optional: only when the operator turned mail on).
-- mail_prefs: a user's address and choice (mode 0 none, 1 a daily digest,
-- 2 a mail per turn), the secret token of the unsubscribe link in every
-- mail (kept as it is: it only turns mail off), and when the sweep looks
-- at the user's digest next. mail_queue: the mails to send; the web
-- workers only queue (they may not start programs), `spieltisch mail`
-- renders and pipes them into the sendmail command. state: 0 queued,
-- 1 sent, 2 dropped (no longer true, or mail turned off), 3 given up.
-- At most one queued mail per user, kind and table: no flood.
CREATE TABLE mail_prefs (
	user_id   INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	address   TEXT NOT NULL,
	mode      INTEGER NOT NULL DEFAULT 0 CHECK (mode IN (0, 1, 2)),
	token     TEXT NOT NULL UNIQUE,
	digest_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX mail_prefs_digest ON mail_prefs(mode, digest_at);
CREATE TABLE mail_queue (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	kind       INTEGER NOT NULL CHECK (kind IN (1, 2)),
	table_id   INTEGER REFERENCES tables(id) ON DELETE CASCADE,
	created_at INTEGER NOT NULL,
	next_try   INTEGER NOT NULL,
	attempts   INTEGER NOT NULL DEFAULT 0,
	state      INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2, 3)),
	done_at    INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX mail_queue_pending ON mail_queue(user_id, kind, coalesce(table_id, 0))
	WHERE state = 0;
CREATE INDEX mail_queue_due ON mail_queue(state, next_try);

PRAGMA user_version = 12;
