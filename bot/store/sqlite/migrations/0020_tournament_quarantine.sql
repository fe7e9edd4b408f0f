-- 19: tournaments set aside. An event whose stored rows cannot be read (or break a constraint) is paused, as a
-- match is (quarantine): every pass skips it instead of failing on it, and its organizer is told once (the
-- telling claimed for a lease, so that one process tells). Its matches are matches: they play on.
CREATE TABLE tournament_quarantine (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
    reason TEXT NOT NULL,
    since REAL NOT NULL,
    organizer_told INTEGER NOT NULL DEFAULT 0,
    told_claimed_until REAL
);
