-- 028: the tournament page reads a round's results by a range of its
-- tables (docs/tournaments.md): the index those rows are read down now
-- holds every column the page reads of them, so a row is not looked up a
-- second time in the table by its key (3.3k instructions a row, 130k of
-- the 1,000-player page's 40 shown results). user_id is in it before the
-- rest so that the order (table, place, user) stays the index's own.
DROP INDEX tournament_results_tables;
CREATE INDEX tournament_results_tables ON tournament_results(tournament, round, table_no, place,
	user_id, points, party_points, table_id, seat);

PRAGMA user_version = 28;
