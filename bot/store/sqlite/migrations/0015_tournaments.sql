-- 14: tournaments. An event (round robin or Swiss) in a server, its players, and its games by round: each a
-- match of the matches table, or a bye. Every change bumps the event's version, and a round is stored by a
-- compare-and-set on it (with its matches, in the same transaction), so two processes never both pair it.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER,
    organizer_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    rounds INTEGER NOT NULL CHECK (rounds >= 0),
    days_per_move REAL CHECK (days_per_move IS NULL OR days_per_move > 0),
    max_players INTEGER NOT NULL CHECK (max_players >= 2),
    starts_at REAL,
    rated INTEGER NOT NULL DEFAULT 1,
    status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    told_round INTEGER NOT NULL DEFAULT 0,
    podium_told INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_guild_status ON tournaments (guild_id, status);
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined_at REAL NOT NULL,
    rating REAL,
    withdrawn_at REAL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    division INTEGER NOT NULL DEFAULT 1,
    match_id INTEGER UNIQUE REFERENCES matches (id),
    bye_user_id INTEGER,
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((match_id IS NULL) <> (bye_user_id IS NULL))
);
