-- 4 (lifecycle): time limits (deadline of the current turn, warnings sent), rated flag, vacations,
-- and the bot's heartbeat and outages (deadlines are extended by the time the bot was down)
ALTER TABLE matches ADD COLUMN days_per_move REAL CHECK (days_per_move IS NULL OR days_per_move > 0);
ALTER TABLE matches ADD COLUMN deadline_at REAL;
ALTER TABLE matches ADD COLUMN deadline_notice INTEGER NOT NULL DEFAULT 0 CHECK (deadline_notice BETWEEN 0 AND 3);
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
CREATE INDEX matches_deadline ON matches (deadline_at) WHERE status = 'active';
CREATE TABLE vacations (
    user_id INTEGER NOT NULL,
    starts_at REAL NOT NULL,
    ends_at REAL NOT NULL,
    CHECK (ends_at > starts_at)
);
CREATE INDEX vacations_user ON vacations (user_id, ends_at);
CREATE TABLE heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    last_seen REAL NOT NULL
);
CREATE TABLE outages (
    started_at REAL NOT NULL,
    ended_at REAL NOT NULL,
    CHECK (ended_at >= started_at)
);
