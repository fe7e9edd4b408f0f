-- 25: when each IDENTIFY bucket last identified, in seconds of the database's clock. Until 24 the pacing was
-- only an advisory lock held for the interval after each IDENTIFY, and a process killed in that interval took
-- the lock with it: a process restarted at once identified within Discord's 5 seconds of the dead one's
-- IDENTIFY (the kill soak counted such breaches). The time outlives the process that wrote it.
CREATE TABLE identify_times (
    bucket INTEGER PRIMARY KEY CHECK (bucket >= 0),
    identified_at DOUBLE PRECISION NOT NULL
);
