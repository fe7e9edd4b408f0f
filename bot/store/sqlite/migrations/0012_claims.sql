-- 12 (claims): a process about to act on something due claims it first, for a lease, so that two processes
-- sharing one database never both send one reminder, warning, board or notice; a process that dies lets
-- its claims lapse and another takes them
ALTER TABLE reminders ADD COLUMN claimed_until REAL;
ALTER TABLE matches ADD COLUMN deadline_claimed_until REAL;
ALTER TABLE matches ADD COLUMN announce_claimed_until REAL;
ALTER TABLE quarantine ADD COLUMN told_claimed_until REAL;
