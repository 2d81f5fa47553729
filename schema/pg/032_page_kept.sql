-- 032_page_kept.sql — PostgreSQL's spelling of SQLite's 032: the table's
-- tournament ("id round number name", NULL outside one), whether its chat
-- has a message and the host's name, kept in the table's row by
-- store_ttable_add, store_chat_add and store_table_create; a session's
-- row keeps its user's name and language (store_session_create,
-- store_user_set_lang); a seat's row keeps its user's and claimer's
-- names (store_seat_take, store_seat_claim, store_seats_apply_claims).
ALTER TABLE tables ADD COLUMN tourney TEXT COLLATE "C";
ALTER TABLE tables ADD COLUMN host TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN has_chat BIGINT NOT NULL DEFAULT 0;
UPDATE tables t SET tourney = (SELECT x.tournament || ' ' || x.round || ' ' || x.number || ' ' ||
	o.name FROM tournament_tables x JOIN tournaments o ON o.id = x.tournament
	WHERE x.table_id = t.id),
	host = coalesce((SELECT u.name FROM users u WHERE u.id = t.created_by), ''),
	has_chat = CASE WHEN EXISTS (SELECT 1 FROM chat_messages c WHERE c.table_id = t.id)
	THEN 1 ELSE 0 END;
ALTER TABLE sessions ADD COLUMN name TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN lang TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE sessions SET name = (SELECT u.name FROM users u WHERE u.id = sessions.user_id),
	lang = (SELECT u.lang FROM users u WHERE u.id = sessions.user_id);
ALTER TABLE seats ADD COLUMN name TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN claimer TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE seats SET name = coalesce((SELECT u.name FROM users u WHERE u.id = seats.user_id), ''),
	claimer = coalesce((SELECT c.name FROM users c WHERE c.id = seats.claimed_by), '');
