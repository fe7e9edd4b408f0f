-- 14: post-game reviews (/review). A review is searched once per finished match and kept: a second request
-- is answered from here. While it runs, the row is its claim (one process searches it, under a lease that
-- its progress renews; past the lease another may take it over) and its progress, read by whoever waits.
CREATE TABLE reviews (
    match_id INTEGER PRIMARY KEY REFERENCES matches (id),
    done INTEGER NOT NULL DEFAULT 0 CHECK (done >= 0),
    total INTEGER NOT NULL CHECK (total >= 0),
    data TEXT,
    claimed_until REAL,
    created_at REAL NOT NULL
);
