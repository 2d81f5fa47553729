-- 013: ratings per game and user (OpenSkill, Weng-Lin Plackett-Luce:
-- rules/rating.h), updated once from every finished rated match by its
-- final places. shown: the conservative value the site displays and sorts
-- by (mu - 3 sigma). rating_history: one row per rated match and player.
-- tables.rated: the match's ratings were applied (never twice).
CREATE TABLE ratings (
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	game       TEXT    NOT NULL,
	mu         REAL    NOT NULL,
	sigma      REAL    NOT NULL CHECK (sigma > 0),
	shown      REAL    NOT NULL,
	matches    INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (user_id, game)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings(game, shown DESC);
CREATE TABLE rating_history (
	id       INTEGER PRIMARY KEY,
	user_id  INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	game     TEXT    NOT NULL,
	table_id INTEGER REFERENCES tables(id) ON DELETE SET NULL,
	mu       REAL    NOT NULL,
	sigma    REAL    NOT NULL,
	shown    REAL    NOT NULL,
	place    INTEGER NOT NULL,
	players  INTEGER NOT NULL,
	at       INTEGER NOT NULL
);
CREATE INDEX rating_history_user ON rating_history(user_id, game, id);
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

PRAGMA user_version = 13;
