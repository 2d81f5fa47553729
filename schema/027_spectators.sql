-- 027: the table option "Zuschauer erlaubt" (issue 37). 1, the default:
-- a running table is listed in the lobby to watch, and a visitor may see
-- its page and replay its running party from the spectator's view; 0: it
-- is not listed, and only its seats see it while it runs (once it is
-- finished, everyone may look at it and its replays again).
ALTER TABLE tables ADD COLUMN spectators INTEGER NOT NULL DEFAULT 1 CHECK (spectators IN (0, 1));

PRAGMA user_version = 27;
