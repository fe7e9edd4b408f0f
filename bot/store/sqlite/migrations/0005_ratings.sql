-- 5 (lifecycle): OpenSkill ratings per server and game; which finished matches were rated (once each)
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL CHECK (sigma > 0),
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    losses INTEGER NOT NULL DEFAULT 0,
    draws INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, mu);
CREATE TABLE rated_matches (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    counted INTEGER NOT NULL,
    rated_at REAL NOT NULL
);
