-- 002: a finished party's result as one row per seat (place and points),
-- instead of a comma-separated text in parties.scores, so that match
-- totals, tournaments and ratings are plain SQL.
CREATE TABLE party_results (
	party  INTEGER NOT NULL REFERENCES parties(id) ON DELETE CASCADE,
	seat   INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 9),
	place  INTEGER NOT NULL CHECK (place BETWEEN 1 AND 10),
	points INTEGER NOT NULL,
	PRIMARY KEY (party, seat)
) WITHOUT ROWID;

-- The old texts ("3,-1,0") of finished parties, split into rows; their
-- places follow the points (more is better, ties share), which is what
-- both games' places were when these parties were stored.
WITH RECURSIVE split(party, seat, rest, item) AS (
	SELECT id, -1, scores || ',', NULL FROM parties WHERE over = 1 AND scores <> ''
	UNION ALL
	SELECT party, seat + 1, substr(rest, instr(rest, ',') + 1),
	       CAST(substr(rest, 1, instr(rest, ',') - 1) AS INTEGER)
	FROM split WHERE rest <> ''
)
INSERT INTO party_results (party, seat, place, points)
SELECT party, seat, rank() OVER (PARTITION BY party ORDER BY item DESC), item
FROM split WHERE seat >= 0;

ALTER TABLE parties DROP COLUMN scores;

PRAGMA user_version = 2;
