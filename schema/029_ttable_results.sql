-- 029: a round's table carries its results as one text (docs/tournaments.md):
-- a line a person, "user place points party_points name\n", appended by
-- store_tresult_put with the result row. The tournament page shows ten
-- tables of a round a page; their forty result rows, each a step down the
-- index of 028 (1.8k instructions a row), are ten columns of the tables'
-- own read instead. The result rows stay what the exports and the engine
-- read.
ALTER TABLE tournament_tables ADD COLUMN results TEXT NOT NULL DEFAULT '';
UPDATE tournament_tables SET results = coalesce((SELECT group_concat(r.user_id || ' ' ||
	r.place || ' ' || r.points || ' ' || r.party_points || ' ' || r.name || char(10), '')
	FROM tournament_results r WHERE r.tournament = tournament_tables.tournament
	AND r.round = tournament_tables.round AND r.table_no = tournament_tables.number), '');

PRAGMA user_version = 29;
