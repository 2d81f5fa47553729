-- 032: values the reads looked up in subqueries or joins at every read,
-- kept in rows by the store calls that change them (as 031 keeps
-- seats_taken); PostgreSQL builds every subquery's state at every
-- execution of a statement (docs/benchmarks.md, "PostgreSQL: the page's
-- plans, statements and kept values"). No triggers: the store writes them.
-- tables: the tournament as "id round number name" (NULL outside one;
--   store_ttable_add, the one call that puts a table into a tournament,
--   whose name never changes), the host's name (store_table_create; a
--   table's creator and a user's name never change) and whether its chat
--   has a message (store_chat_add; messages are never deleted).
-- sessions: the user's name and language (store_session_create,
--   store_user_set_lang): the session's read needs no join.
-- seats: the user's and the claimer's names (the seat's taking, the claim,
--   the claim's taking effect): the page's seats need no lookups.
ALTER TABLE tables ADD COLUMN tourney TEXT;
ALTER TABLE tables ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN has_chat INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET tourney = (SELECT x.tournament || ' ' || x.round || ' ' || x.number || ' ' ||
	o.name FROM tournament_tables x JOIN tournaments o ON o.id = x.tournament
	WHERE x.table_id = tables.id),
	host = coalesce((SELECT u.name FROM users u WHERE u.id = tables.created_by), ''),
	has_chat = CASE WHEN EXISTS (SELECT 1 FROM chat_messages c WHERE c.table_id = tables.id)
	THEN 1 ELSE 0 END;
ALTER TABLE sessions ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN lang TEXT NOT NULL DEFAULT '';
UPDATE sessions SET name = (SELECT u.name FROM users u WHERE u.id = sessions.user_id),
	lang = (SELECT u.lang FROM users u WHERE u.id = sessions.user_id);
ALTER TABLE seats ADD COLUMN name TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN claimer TEXT NOT NULL DEFAULT '';
UPDATE seats SET name = coalesce((SELECT u.name FROM users u WHERE u.id = seats.user_id), ''),
	claimer = coalesce((SELECT c.name FROM users c WHERE c.id = seats.claimed_by), '');

PRAGMA user_version = 32;
