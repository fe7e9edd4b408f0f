-- 22: the standings after each Swiss round are posted in the event's channel, once. standings_told is the last
-- round whose standings were posted; standings_claimed_until/_by the claim of the process posting them, named by
-- its start as every claim is since 21 (a process killed while posting leaves them to the next look at once on
-- SQLite, once its heartbeat is stale on PostgreSQL). The notice to the organizer of an event set aside (20) is
-- claimed the same way: told_claimed_by.
ALTER TABLE tournaments ADD COLUMN standings_told INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN standings_claimed_until REAL;
ALTER TABLE tournaments ADD COLUMN standings_claimed_by TEXT;
ALTER TABLE tournament_quarantine ADD COLUMN told_claimed_by TEXT;
