-- 6 (lifecycle): server settings set by admins; NULL = inherit (match option > server > environment)
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    match_channel_id INTEGER,
    days_per_move REAL CHECK (days_per_move IS NULL OR days_per_move >= 0),
    reminder_hours REAL CHECK (reminder_hours IS NULL OR reminder_hours > 0),
    updated_at REAL NOT NULL
);
