-- 17: conditional moves and private analysis boards (issue 25).
-- A player's conditional moves in a match: whole lines of turns from the position of ``version`` ("if they
-- play X, I answer Y, then if they play Z …"), several lines making a tree. Kept only while the match is at
-- that version: the move that follows plays an answer or clears them, and any other change leaves them stale.
CREATE TABLE premoves (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    lines TEXT NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
-- A player's private analysis board: a copy of the position of ``version`` (``base``, the engine's state),
-- the turns played on it since, and how many of them the board shows (stepping back shows fewer).
CREATE TABLE explorations (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    base TEXT NOT NULL,
    turns TEXT NOT NULL,
    shown INTEGER NOT NULL CHECK (shown >= 0),
    updated_at REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
-- A turn the bot played from a player's conditional moves (the thread and /history say so).
ALTER TABLE moves ADD COLUMN conditional INTEGER NOT NULL DEFAULT 0;
-- 0 when the match forbids conditional moves and private analysis (its creator's choice at /play).
ALTER TABLE matches ADD COLUMN analysis INTEGER NOT NULL DEFAULT 1;
-- 1 once a player stored conditional moves in the match (never cleared): only such matches look for them
-- after a move, so a turn elsewhere costs no extra trip to the database. Set by the edit's compare-and-set on
-- the version, an UPDATE of the match row that a move's UPDATE waits for (or that sees the move's version).
ALTER TABLE matches ADD COLUMN premoves_held INTEGER NOT NULL DEFAULT 0;
-- A server's default for that choice (NULL: allowed; /config premoves:).
ALTER TABLE guild_settings ADD COLUMN analysis INTEGER;
