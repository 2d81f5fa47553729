-- 028_results_covering.sql — PostgreSQL's spelling of SQLite's 028: each
-- result row carries its player's name (names never change), and the
-- index a round's results are read down holds every column the tournament
-- page reads of them (docs/tournaments.md).
ALTER TABLE tournament_results ADD COLUMN name TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE tournament_results r SET name = coalesce((SELECT u.name FROM users u WHERE u.id = r.user_id), '');
DROP INDEX tournament_results_tables;
CREATE INDEX tournament_results_tables ON tournament_results(tournament, round, table_no, place,
	user_id, points, party_points, table_id, seat, name);
