-- 004: seats a bot plays. bot: 0 a person plays it, 1 the random bot, 2 the
-- greedy bot (rules/bot.h). A bot seat has no user when a bot took it from
-- the start; when a person let a bot play for them, or resigned, the seat
-- keeps their user (they may take it back unless they resigned). resigned:
-- the person gave up: a bot plays on and the seat's results in this match
-- count as last.
CREATE TABLE seats_new (
	table_id  INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
	seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 9),
	user_id   INTEGER REFERENCES users(id),
	bot       INTEGER NOT NULL DEFAULT 0 CHECK (bot BETWEEN 0 AND 2),
	resigned  INTEGER NOT NULL DEFAULT 0 CHECK (resigned IN (0, 1)),
	CHECK (user_id IS NOT NULL OR bot > 0),
	CHECK (resigned = 0 OR bot > 0),
	PRIMARY KEY (table_id, seat),
	UNIQUE (table_id, user_id)
) WITHOUT ROWID;
INSERT INTO seats_new (table_id, seat, user_id) SELECT table_id, seat, user_id FROM seats;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
CREATE INDEX seats_user ON seats(user_id, table_id);

PRAGMA user_version = 4;
