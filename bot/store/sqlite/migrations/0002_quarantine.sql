-- 2: matches set aside at start-up because their move log does not replay to their state
CREATE TABLE quarantine (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    reason TEXT NOT NULL,
    since REAL NOT NULL,
    players_told INTEGER NOT NULL DEFAULT 0
);
