-- 7 (lifecycle): where each offer was posted, so a move that lapses it can take its buttons away
ALTER TABLE offers ADD COLUMN channel_id INTEGER;
ALTER TABLE offers ADD COLUMN message_id INTEGER;
