-- 3 (lifecycle): agreed draws, takebacks and time-outs are moves (the log stays the truth); pending offers.
-- SQLite cannot alter a CHECK, so the moves table is rebuilt.
CREATE TABLE moves_rebuilt (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('turn', 'resign', 'draw', 'takeback', 'timeout')),
    notation TEXT NOT NULL,
    entered TEXT NOT NULL,
    events TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO moves_rebuilt (match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at)
    SELECT match_id, seq, ply, seat, user_id, kind, notation, entered, events, created_at FROM moves;
DROP TABLE moves;
ALTER TABLE moves_rebuilt RENAME TO moves;
CREATE TABLE offers (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    kind TEXT NOT NULL CHECK (kind IN ('draw', 'undo')),
    user_id INTEGER NOT NULL,
    at_seq INTEGER NOT NULL,
    accepted TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL,
    PRIMARY KEY (match_id, kind)
);
