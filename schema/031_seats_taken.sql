-- 031: how many seats of a table are held, kept in the table's row by the
-- statements that take and leave a seat (store_seat_take,
-- store_seat_add_bot, store_seat_leave; a table's seats go only with the
-- table). The lobby's open tables and "Meine Tische" counted every open
-- table's seats in a correlated subquery (about 3.4k instructions a
-- table: 27k of /me at 200 tables); now it is a column of the row they
-- read anyway.
ALTER TABLE tables ADD COLUMN seats_taken INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET seats_taken = (SELECT count(*) FROM seats s WHERE s.table_id = tables.id);

PRAGMA user_version = 31;
