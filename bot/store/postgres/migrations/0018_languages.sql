-- 18: the languages the bot speaks (issue 24). A server's public posts are in the language its members chose
-- with /config language, else the server's preferred locale as Discord last sent it (seen_language). A person's
-- private posts (DMs, reminders) are in the language they chose with /settings language, else the one their
-- Discord was in at their last interaction. Languages are stored as Hexplay's codes (en, fr).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
ALTER TABLE guild_settings ADD COLUMN seen_language TEXT;
CREATE TABLE player_languages (
    user_id BIGINT PRIMARY KEY,
    chosen TEXT,
    seen TEXT,
    updated_at DOUBLE PRECISION NOT NULL
);
