-- 026: a step is one write. Before, every step updated the party's
-- snapshot, cleared its results, appended the step, updated the seats'
-- "who acts" flags and the table's version, and a trigger wrote the /me
-- number of every seated user (me_seq): five statements and a trigger a
-- step. Now the step row carries the position after it (its snapshot), the
-- table row carries who acts (one bit a seat), and the step is the append
-- plus one update of the table's row of numbers; me_seq is written only
-- for a user whose "Meine Tische" the step changes (asked or no longer
-- asked, an earlier deadline). What the triggers did is done in C by the
-- few statements that change those rows (cgi/store/), so that the schema
-- is tables and indexes only (docs/storage.md).

-- the position after the step; at the end of a party only every 16th
-- step and the last keep theirs (checkpoints for replays)
ALTER TABLE moves ADD COLUMN snapshot BLOB;

-- who acts now, one bit a seat (the seats' flags of 011, 018, 021)
ALTER TABLE tables ADD COLUMN acting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN in_window INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN to_continue INTEGER NOT NULL DEFAULT 0;
UPDATE tables SET
	acting = coalesce((SELECT sum(1 << s.seat) FROM seats s WHERE s.table_id = tables.id
		AND s.acting = 1), 0),
	in_window = coalesce((SELECT sum(1 << s.seat) FROM seats s WHERE s.table_id = tables.id
		AND s.in_window = 1), 0),
	to_continue = coalesce((SELECT sum(1 << s.seat) FROM seats s WHERE s.table_id = tables.id
		AND s.to_continue = 1), 0);

-- the current position of every party moves onto its last step (the
-- party row keeps the deal it started from only where it has no step)
UPDATE moves SET snapshot = (SELECT p.snapshot FROM parties p WHERE p.id = moves.party)
WHERE seq = (SELECT max(m.seq) FROM moves m WHERE m.party = moves.party);

-- the count of tables waiting for the user (every page's title), as of
-- their number `seq`: counted again only when that has moved
ALTER TABLE me_seq ADD COLUMN waiting INTEGER NOT NULL DEFAULT 0;
ALTER TABLE me_seq ADD COLUMN waiting_seq INTEGER NOT NULL DEFAULT 0;

DROP TRIGGER me_seq_user;
DROP TRIGGER me_seq_table;
DROP TRIGGER me_seq_invited;
DROP TRIGGER me_seq_seat_in;
DROP TRIGGER me_seq_seat_out;
DROP TRIGGER me_seq_seat_hands;
DROP TRIGGER me_seq_invite_in;
DROP TRIGGER me_seq_invite_out;
DROP TRIGGER seats_done;
DROP TRIGGER tables_id_high;

DROP INDEX seats_acting;
ALTER TABLE seats DROP COLUMN acting;
ALTER TABLE seats DROP COLUMN in_window;
ALTER TABLE seats DROP COLUMN to_continue;

PRAGMA user_version = 26;
