-- 21: the standings after each Swiss round are posted in the event's channel, once. standings_told is the last
-- round whose standings were posted; standings_claimed_until is the lease of the process posting them (a process
-- killed while posting leaves them to another once the lease ends).
ALTER TABLE tournaments ADD COLUMN standings_told INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN standings_claimed_until REAL;
