-- 23: puzzles from a server's own finished matches (issue 36, docs/puzzles.md). A match is searched once: its
-- scan is claimed for a lease (a process killed mid-search leaves it to the next after the lease), and its
-- puzzles are stored with the scan's end in one transaction (a puzzle is unique per server, match and turn).
CREATE TABLE puzzle_scans (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    claimed_until REAL,
    done_at REAL,
    found INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    document TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL DEFAULT 350.0,
    source_match_id INTEGER,
    source_ply INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    self_play TEXT,
    UNIQUE (guild_id, source_match_id, source_ply)
);
-- Puzzles of the computer's games against itself (server 0: every server's, so a new one has puzzles on day
-- one; no server's games are in them), each stored once by its game, level, seed and turn.
CREATE UNIQUE INDEX puzzles_self_play ON puzzles (self_play) WHERE self_play IS NOT NULL;
CREATE INDEX puzzles_by_guild_rating ON puzzles (guild_id, rating);
-- A player's attempt at a puzzle: one per player and puzzle (its rating changes once), at most one open at a
-- time per player; every answer a compare-and-set on its version.
CREATE TABLE puzzle_attempts (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    user_id INTEGER NOT NULL,
    progress TEXT NOT NULL DEFAULT '[]',
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'solved', 'failed')),
    version INTEGER NOT NULL DEFAULT 1,
    hinted INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL,
    finished_at REAL,
    rating_change REAL,
    PRIMARY KEY (puzzle_id, user_id)
);
CREATE UNIQUE INDEX puzzle_attempts_one_open ON puzzle_attempts (user_id) WHERE status = 'open';
CREATE TABLE puzzle_players (
    user_id INTEGER PRIMARY KEY,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    solved INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0
);
-- The daily puzzle: where and when a server wants it (set by /puzzle daily), and each day's post, claimed for a
-- lease by the process that posts it (posted with the day as its nonce, so a repost after a killed process is
-- Discord's same message), with its solvers' count and the fastest.
CREATE TABLE puzzle_settings (
    guild_id INTEGER PRIMARY KEY,
    channel_id INTEGER,
    hour INTEGER NOT NULL DEFAULT 12
);
CREATE TABLE daily_puzzles (
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    claimed_until REAL,
    solvers INTEGER NOT NULL DEFAULT 0,
    fastest_user_id INTEGER,
    fastest_seconds REAL,
    PRIMARY KEY (guild_id, day)
);
CREATE UNIQUE INDEX daily_puzzles_by_puzzle ON daily_puzzles (puzzle_id);
