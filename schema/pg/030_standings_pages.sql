-- 030_standings_pages.sql — PostgreSQL's spelling of SQLite's 030: the
-- standings row that begins a page of 20 carries that page's rows as one
-- text, a line a row ("rank_order user_id place points party_points sb2
-- played byes left_how left_round out_round name" and a newline), for the
-- tournament page's read of a page of standings (docs/tournaments.md).
ALTER TABLE tournament_standings ADD COLUMN page_rows TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE tournament_standings d SET page_rows = coalesce((SELECT string_agg(e.rank_order || ' ' ||
	e.user_id || ' ' || e.place || ' ' || e.points || ' ' || e.party_points || ' ' || e.sb2 ||
	' ' || e.played || ' ' || e.byes || ' ' || e.left_how || ' ' || e.left_round || ' ' ||
	e.out_round || ' ' || e.name || E'\n', '' ORDER BY e.rank_order) FROM tournament_standings e
	WHERE e.tournament = d.tournament AND e.rank_order BETWEEN d.rank_order AND d.rank_order + 19),
	'') WHERE d.rank_order % 20 = 0;
