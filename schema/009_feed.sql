-- 009: every user's secret feed token, for the Atom feed of their tables
-- (GET /feed/<token>.atom). It is kept as it is, not hashed: the account
-- page shows the whole feed address every time, and the token opens
-- nothing but that feed, whose entries anyone holding the database can read
-- there anyway. A new token replaces the row, so the old address is gone at
-- once. created_at is the feed's "updated" while it has no entry.
CREATE TABLE feeds (
	user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	token TEXT NOT NULL UNIQUE,
	created_at INTEGER NOT NULL
);

PRAGMA user_version = 9;
