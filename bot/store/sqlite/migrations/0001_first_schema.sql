-- 1: the first schema
CREATE TABLE matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    lobby_message_id INTEGER,
    board_channel_id INTEGER,
    board_message_id INTEGER,
    creator_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    turn_started_at REAL,
    result TEXT,
    announced_version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX matches_guild_status ON matches (guild_id, status);
CREATE INDEX matches_thread ON matches (thread_id);
CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    accepted INTEGER NOT NULL DEFAULT 1,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
CREATE INDEX seats_user ON seats (user_id);
CREATE TABLE moves (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('turn', 'resign')),
    notation TEXT NOT NULL,
    entered TEXT NOT NULL,
    events TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE challenges (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    invited TEXT NOT NULL,
    open_seats INTEGER NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE preferences (
    user_id INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    reminders INTEGER NOT NULL DEFAULT 1,
    delay_hours REAL,
    via TEXT NOT NULL DEFAULT 'dm' CHECK (via IN ('dm', 'ping')),
    PRIMARY KEY (user_id, guild_id)
);
CREATE TABLE reminders (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    remind_at REAL NOT NULL,
    last_sent_at REAL,
    snoozed INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX reminders_due ON reminders (remind_at);
