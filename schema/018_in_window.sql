-- 018: of the seats that may act (acting, 011), those that act in a window
-- (a snap, a reaction) while another seat has the turn, kept by the same
-- statement after every step. "Meine Tische" tells "Du bist dran!" from
-- "Fenster offen" with it instead of loading and decoding every running
-- table of the user (docs/benchmarks.md, "/me"). Rows from before have 0:
-- a window open at the upgrade shows as a turn there until the next step.
ALTER TABLE seats ADD COLUMN in_window INTEGER NOT NULL DEFAULT 0 CHECK (in_window IN (0, 1));

PRAGMA user_version = 18;
