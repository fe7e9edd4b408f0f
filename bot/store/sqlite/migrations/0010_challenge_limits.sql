-- 10 (limits, docs/rules.md "Limits"): challenges made, kept about a day, so a restart forgets no count: one
-- row per challenge (invited_id 0) and one per person it invited. Who a player refuses challenges from: a
-- block holds in every server, "nobody" is a per-server preference.
CREATE TABLE challenge_events (
    guild_id INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL,
    invited_id INTEGER NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX challenge_events_challenger ON challenge_events (challenger_id, invited_id, at);
CREATE INDEX challenge_events_at ON challenge_events (at);
CREATE TABLE challenge_blocks (
    user_id INTEGER NOT NULL,
    blocked_id INTEGER NOT NULL,
    since REAL NOT NULL,
    PRIMARY KEY (user_id, blocked_id)
);
ALTER TABLE preferences ADD COLUMN challenges TEXT NOT NULL DEFAULT 'everyone'
    CHECK (challenges IN ('everyone', 'nobody'));
