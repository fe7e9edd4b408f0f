-- 25: when each IDENTIFY bucket last identified, in seconds of the wall clock. Until 24 SQLite's pacing lived in
-- the process's memory (PostgreSQL's in an advisory lock held for the interval), so a process killed just after
-- an IDENTIFY and restarted at once identified again within Discord's 5 seconds. The time outlives the process.
CREATE TABLE identify_times (
    bucket INTEGER PRIMARY KEY CHECK (bucket >= 0),
    identified_at REAL NOT NULL
);
