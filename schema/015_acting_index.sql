-- 015: the seats where a person (not a bot) may act now, by user: every
-- page counts them for its tab title (store_user_acting), and the mail
-- digest looks for them. Through seats_user that count read every seat the
-- user ever had and looked each one up in seats; this index holds only the
-- acting seats, and with the table id (part of the key of seats) it answers
-- the count without seats itself.
CREATE INDEX seats_acting ON seats(user_id) WHERE acting = 1 AND bot = 0;

PRAGMA user_version = 15;
