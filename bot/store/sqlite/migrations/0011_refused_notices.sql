-- 11 (reminders): notices (a reminder, a time-limit warning or time-out)
-- that Discord refused everywhere they may go, counted per match as of its version, so that giving up
-- after a few tries survives restarts; a later version of the match counts afresh
CREATE TABLE refused_notices (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    notice TEXT NOT NULL,
    version INTEGER NOT NULL,
    tries INTEGER NOT NULL,
    PRIMARY KEY (match_id, notice)
);
