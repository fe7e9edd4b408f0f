-- 13: a heartbeat per gateway shard. With several bot processes, each running some of the shards, a process
-- that is down pauses the clocks of its own shards' servers only: the other processes must not time out a
-- player whose commands cannot reach the bot, and the process gives those clocks their time back when it
-- returns. A single process keeps the layout (shard 0 of 1) the old heartbeat row stood for.
CREATE TABLE shard_heartbeats (
    shard_count INTEGER NOT NULL CHECK (shard_count >= 1),
    shard_id INTEGER NOT NULL CHECK (shard_id >= 0),
    last_seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);
INSERT INTO shard_heartbeats (shard_count, shard_id, last_seen) SELECT 1, 0, last_seen FROM heartbeat;
-- Discord's 50 requests a second count every process of the bot together: what the processes send in bulk
-- (reminders, notices, catch-up boards) is granted from one count per second of wall clock.
CREATE TABLE request_budget (
    second BIGINT PRIMARY KEY,
    used INTEGER NOT NULL CHECK (used >= 0)
);
