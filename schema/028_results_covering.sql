-- 028: the tournament page reads a round's results by a range of its
-- tables (docs/tournaments.md). Each result row now carries its player's
-- name (names never change; the standings carry it too), and the index
-- those rows are read down holds every column the page reads of them: a
-- row is neither looked up a second time in the table by its key (3.3k
-- instructions a row, 130k of the 1,000-player page's 40 shown results)
-- nor joined with the users for the name (1k a row). user_id stands
-- before the rest so that the order (table, place, user) stays the
-- index's own.
ALTER TABLE tournament_results ADD COLUMN name TEXT NOT NULL DEFAULT '';
UPDATE tournament_results SET name = coalesce((SELECT u.name FROM users u
	WHERE u.id = tournament_results.user_id), '');
DROP INDEX tournament_results_tables;
CREATE INDEX tournament_results_tables ON tournament_results(tournament, round, table_no, place,
	user_id, points, party_points, table_id, seat, name);

PRAGMA user_version = 28;
