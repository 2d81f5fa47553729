-- 006: a table's speed and its seats' clocks (rules/clock.h).
-- clock_first: the bank each seat starts the match with (ms); 0: no clock.
-- clock_per_move: added to a seat's bank when its wait ends with its move;
-- clock_cap: the most a bank holds (0: no cap); clock_day: a day's length
-- in ms (shorter only on test servers); clock_weekend: Saturdays and
-- Sundays do not count; over_days: windows wait for the seats' clocks
-- instead of their own deadlines; timeouts_max: after this many timeouts
-- in a match a bot takes the seat over for good (0: never).
ALTER TABLE tables ADD COLUMN clock_first INTEGER NOT NULL DEFAULT 0 CHECK (clock_first >= 0);
ALTER TABLE tables ADD COLUMN clock_per_move INTEGER NOT NULL DEFAULT 0 CHECK (clock_per_move >= 0);
ALTER TABLE tables ADD COLUMN clock_cap INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0);
ALTER TABLE tables ADD COLUMN clock_day INTEGER NOT NULL DEFAULT 86400000 CHECK (clock_day > 0);
ALTER TABLE tables ADD COLUMN clock_weekend INTEGER NOT NULL DEFAULT 0 CHECK (clock_weekend IN (0, 1));
ALTER TABLE tables ADD COLUMN over_days INTEGER NOT NULL DEFAULT 0 CHECK (over_days IN (0, 1));
ALTER TABLE tables ADD COLUMN timeouts_max INTEGER NOT NULL DEFAULT 0 CHECK (timeouts_max >= 0);

-- A seat's clock: what is left of its bank (ms, below 0 once overrun),
-- since when it runs (0: it does not run now), the seat's timeouts in this
-- match, and which other seats voted to let a bot take it over (bits).
ALTER TABLE seats ADD COLUMN clock_left INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN waiting_since INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
ALTER TABLE seats ADD COLUMN expel_votes INTEGER NOT NULL DEFAULT 0;

PRAGMA user_version = 6;
