-- 24: the daily puzzle's post is claimed like every other claim since 21: claimed_by names the process start
-- that holds it, so a process killed holding a day's post leaves it to the next look at once on SQLite, once
-- its heartbeat is stale on PostgreSQL, not after the lease. And a server may share its puzzles (/config
-- share_puzzles; NULL: not shared): servers that share draw from each other's puzzles besides their own.
ALTER TABLE daily_puzzles ADD COLUMN claimed_by TEXT;
ALTER TABLE guild_settings ADD COLUMN share_puzzles INTEGER;
-- The server where each attempt was made, for its puzzle leaderboard (a shared puzzle is another server's); an
-- attempt made before 24 counts for its puzzle's server, as it did.
ALTER TABLE puzzle_attempts ADD COLUMN guild_id INTEGER;
