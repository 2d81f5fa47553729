-- 014: tournaments across many tables (docs/tournaments.md). A tournament
-- is the rule its organiser set (game, options, speed, seats per table and
-- the smallest allowed, rounds, format, points by place, tie-breaks,
-- registration deadline, start); every table it seats is an ordinary table
-- (tournament_tables); every player's result of every round is one row
-- (tournament_results), so standings are read, never parsed.
--
-- status: 0 registration, 1 running, 2 finished, 3 cancelled (too few
-- players at the start). round: the rounds seated so far. format: 0 Swiss,
-- 1 elimination (the best `advance` of each table go on), 2 round robin in
-- groups. version grows with every change the tournament page shows.
-- players and entrants count tournament_players (kept by the store with
-- every registration, so that reading a tournament counts nothing).
CREATE TABLE tournaments (
	id             INTEGER PRIMARY KEY,
	name           TEXT    NOT NULL,
	game           TEXT    NOT NULL,
	options        TEXT    NOT NULL DEFAULT '',
	format         INTEGER NOT NULL CHECK (format BETWEEN 0 AND 2),
	seats          INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 8),
	min_seats      INTEGER NOT NULL CHECK (min_seats BETWEEN 2 AND seats),
	rounds         INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 20),
	advance        INTEGER NOT NULL DEFAULT 0 CHECK (advance >= 0 AND advance < seats),
	points         TEXT    NOT NULL,
	tiebreaks      TEXT    NOT NULL DEFAULT 'party,sb',
	clock_first    INTEGER NOT NULL DEFAULT 0 CHECK (clock_first >= 0),
	clock_per_move INTEGER NOT NULL DEFAULT 0 CHECK (clock_per_move >= 0),
	clock_cap      INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0),
	clock_day      INTEGER NOT NULL DEFAULT 86400000 CHECK (clock_day > 0),
	clock_weekend  INTEGER NOT NULL DEFAULT 0 CHECK (clock_weekend IN (0, 1)),
	over_days      INTEGER NOT NULL DEFAULT 0 CHECK (over_days IN (0, 1)),
	timeouts_max   INTEGER NOT NULL DEFAULT 3 CHECK (timeouts_max >= 0),
	register_until INTEGER NOT NULL,
	starts_at      INTEGER NOT NULL CHECK (starts_at >= register_until),
	status         INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 3),
	players        INTEGER NOT NULL DEFAULT 0,   -- registered and not withdrawn
	entrants       INTEGER NOT NULL DEFAULT 0,   -- registered, withdrawn or not
	round          INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
	seed           INTEGER NOT NULL,
	version        INTEGER NOT NULL DEFAULT 1,
	created_by     INTEGER REFERENCES users(id) ON DELETE SET NULL,
	created_at     INTEGER NOT NULL
);
-- The list: the ones still to come and running first, by their start.
CREATE INDEX tournaments_status ON tournaments(status, starts_at);

-- Who plays. left: 0 in, 1 withdrew, 2 removed by the organiser (from the
-- round after left_round on nobody seats them). out_round: the elimination
-- round they went out in, 0 still in. grp, gpos: round robin in groups, the
-- group and the place in it drawn at the start (-1 before).
CREATE TABLE tournament_players (
	tournament    INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	registered_at INTEGER NOT NULL,
	left_how      INTEGER NOT NULL DEFAULT 0 CHECK (left_how BETWEEN 0 AND 2),
	left_round    INTEGER NOT NULL DEFAULT 0,
	out_round     INTEGER NOT NULL DEFAULT 0,
	grp           INTEGER NOT NULL DEFAULT -1,
	gpos          INTEGER NOT NULL DEFAULT -1,
	PRIMARY KEY (tournament, user_id)
) WITHOUT ROWID;
-- "My tournaments".
CREATE INDEX tournament_players_user ON tournament_players(user_id, tournament);

-- The tables of each round. done: its results are in tournament_results.
CREATE TABLE tournament_tables (
	tournament INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	round      INTEGER NOT NULL CHECK (round >= 1),
	number     INTEGER NOT NULL CHECK (number >= 0),
	table_id   INTEGER NOT NULL UNIQUE REFERENCES tables(id) ON DELETE CASCADE,
	done       INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
	PRIMARY KEY (tournament, round, number)
) WITHOUT ROWID;

-- One row per player and round played or sat out: the table (table_no -1:
-- a bye), the place there, the tournament points of that place and the
-- player's match total (party points).
CREATE TABLE tournament_results (
	tournament   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	round        INTEGER NOT NULL CHECK (round >= 1),
	user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	table_no     INTEGER NOT NULL CHECK (table_no >= -1),
	table_id     INTEGER REFERENCES tables(id) ON DELETE SET NULL,
	seat         INTEGER NOT NULL DEFAULT -1,
	place        INTEGER NOT NULL DEFAULT 0 CHECK (place >= 0),
	points       INTEGER NOT NULL,
	party_points INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament, round, user_id)
) WITHOUT ROWID;
-- The standings read the rows of one table together.
CREATE INDEX tournament_results_tables ON tournament_results(tournament, round, table_no, place);

-- The standings as they stand, written again whenever results change
-- (rules/tournament.h computes them from tournament_results), so that the
-- page of a tournament of a thousand players reads one page of rows.
-- rank_order: the listing's order, 0 first; place: shared on a full tie.
CREATE TABLE tournament_standings (
	tournament   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
	rank_order   INTEGER NOT NULL CHECK (rank_order >= 0),
	user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	place        INTEGER NOT NULL CHECK (place >= 1),
	points       INTEGER NOT NULL,
	party_points INTEGER NOT NULL,
	sb2          INTEGER NOT NULL,
	played       INTEGER NOT NULL,
	byes         INTEGER NOT NULL,
	name         TEXT    NOT NULL,               -- the player's, as tournament_players
	left_how     INTEGER NOT NULL DEFAULT 0,     -- has them (one read for a page of
	left_round   INTEGER NOT NULL DEFAULT 0,     -- rows: no join per row)
	out_round    INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (tournament, rank_order)
) WITHOUT ROWID;
CREATE INDEX tournament_standings_user ON tournament_standings(tournament, user_id);

PRAGMA user_version = 14;
