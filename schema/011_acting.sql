-- 011: whether a seat's person may act now (a regular turn, a window, a
-- choice), kept with every step, so that any page can say cheaply in its
-- tab title and favicon how many tables wait for the viewer. Only the
-- seat's own person is ever shown their flag.
ALTER TABLE seats ADD COLUMN acting INTEGER NOT NULL DEFAULT 0 CHECK (acting IN (0, 1));

PRAGMA user_version = 11;
