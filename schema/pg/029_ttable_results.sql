-- 029_ttable_results.sql — PostgreSQL's spelling of SQLite's 029: a round's
-- table carries its results as one text, a line a person ("user place
-- points party_points name" and a newline), for the tournament page's
-- read of a page of tables (docs/tournaments.md).
ALTER TABLE tournament_tables ADD COLUMN results TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE tournament_tables x SET results = coalesce((SELECT string_agg(r.user_id || ' ' ||
	r.place || ' ' || r.points || ' ' || r.party_points || ' ' || r.name || E'\n', '')
	FROM tournament_results r WHERE r.tournament = x.tournament AND r.round = x.round
	AND r.table_no = x.number), '');
