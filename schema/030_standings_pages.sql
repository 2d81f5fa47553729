-- 030: the standings row that begins a page of the tournament page's
-- standings (rank_order a multiple of 20) carries that page's rows as one
-- text (docs/tournaments.md): a line a row, "rank_order user_id place
-- points party_points sb2 played byes left_how left_round out_round
-- name\n", written with the rows by store_tstandings_replace. A page of
-- standings is then one row read by its key, not twenty (2.4k
-- instructions a row of twelve columns). The rows stay what the export,
-- the viewer's own row and the engine read.
ALTER TABLE tournament_standings ADD COLUMN page_rows TEXT NOT NULL DEFAULT '';
UPDATE tournament_standings SET page_rows = coalesce((SELECT group_concat(e.rank_order || ' ' ||
	e.user_id || ' ' || e.place || ' ' || e.points || ' ' || e.party_points || ' ' || e.sb2 ||
	' ' || e.played || ' ' || e.byes || ' ' || e.left_how || ' ' || e.left_round || ' ' ||
	e.out_round || ' ' || e.name || char(10), '') FROM tournament_standings e
	WHERE e.tournament = tournament_standings.tournament
	AND e.rank_order BETWEEN tournament_standings.rank_order
	AND tournament_standings.rank_order + 19), '')
	WHERE rank_order % 20 = 0;

PRAGMA user_version = 30;
