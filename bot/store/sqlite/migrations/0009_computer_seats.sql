-- 9 (computer seats): a seat played by the computer stores its level (NULL = a person; its user id is a
-- pseudo id below zero, distinct per seat); hints (/hint) agreed by every player at creation
ALTER TABLE seats ADD COLUMN computer TEXT CHECK (computer IS NULL OR computer IN ('random', 'easy', 'medium', 'hard'));
ALTER TABLE matches ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
