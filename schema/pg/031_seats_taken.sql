-- 031_seats_taken.sql — PostgreSQL's spelling of SQLite's 031: how many
-- seats of a table are held, kept in the table's row by the statements
-- that take and leave a seat.
ALTER TABLE tables ADD COLUMN seats_taken BIGINT NOT NULL DEFAULT 0;
UPDATE tables t SET seats_taken = (SELECT count(*) FROM seats s WHERE s.table_id = t.id);
