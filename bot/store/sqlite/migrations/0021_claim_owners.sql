-- 21: a claim names the process start (its incarnation) that holds it. A SIGKILLed process never gives its
-- claims back, and a lease of minutes held up every board it had claimed, even for its own restart. Now a
-- claim is free as soon as its holder is known to be gone: on SQLite (one process holds the file) any claim
-- not named by the running start; on PostgreSQL one whose incarnation no shard heartbeat has named within a
-- short while (each process beats for its shards, naming its incarnation, on the lease clock). The lease
-- stays as a bound on a live holder.
ALTER TABLE matches ADD COLUMN announce_claimed_by TEXT;
ALTER TABLE matches ADD COLUMN deadline_claimed_by TEXT;
ALTER TABLE reminders ADD COLUMN claimed_by TEXT;
ALTER TABLE quarantine ADD COLUMN told_claimed_by TEXT;
ALTER TABLE shard_heartbeats ADD COLUMN incarnation TEXT;
ALTER TABLE shard_heartbeats ADD COLUMN incarnation_seen REAL;
-- Every process now looks for boards never posted every few seconds: found by a partial index, as PostgreSQL's
-- baseline has it, not by reading every match.
CREATE INDEX matches_unannounced ON matches (id) WHERE announced_version < version;
