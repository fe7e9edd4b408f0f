-- 19 (issue 39): the computer's new level, expert, may hold a seat. SQLite cannot change a column's CHECK, so
-- the seats table is built again with the same columns (0001, 0009 computer, 0014 bank) and its rows copied;
-- no table refers to seats, so dropping the old one breaks no foreign key.
CREATE TABLE seats_new (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    accepted INTEGER NOT NULL DEFAULT 1,
    resigned INTEGER NOT NULL DEFAULT 0,
    computer TEXT CHECK (computer IS NULL OR computer IN ('random', 'easy', 'medium', 'hard', 'expert')),
    bank REAL CHECK (bank IS NULL OR bank >= 0),
    PRIMARY KEY (match_id, seat),
    UNIQUE (match_id, user_id)
);
INSERT INTO seats_new (match_id, seat, user_id, name, accepted, resigned, computer, bank)
    SELECT match_id, seat, user_id, name, accepted, resigned, computer, bank FROM seats;
DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;
CREATE INDEX seats_user ON seats (user_id);
