-- 14: clocks with a bank, and quiet hours. A match may have a bank clock instead of days per move: every
-- player's bank (seats.bank, seconds) is spent while it is their turn and refilled by the increment after each
-- turn, never above the cap; it changes only in the transaction that records a move. turn_allowance is the
-- mover's bank when their turn began (no warning before the turn did); warnings_held_until holds time-limit
-- warnings through the mover's night. A server may set a default bank clock; a player sets quiet hours (an IANA
-- zone and the night's bounds in minutes after local midnight) in which no reminder reaches them.
ALTER TABLE matches ADD COLUMN clock_bank DOUBLE PRECISION CHECK (clock_bank IS NULL OR clock_bank > 0);
ALTER TABLE matches ADD COLUMN clock_increment DOUBLE PRECISION CHECK (clock_increment IS NULL OR clock_increment >= 0);
ALTER TABLE matches ADD COLUMN clock_cap DOUBLE PRECISION CHECK (clock_cap IS NULL OR clock_cap > 0);
ALTER TABLE matches ADD COLUMN turn_allowance DOUBLE PRECISION;
ALTER TABLE matches ADD COLUMN warnings_held_until DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN bank DOUBLE PRECISION CHECK (bank IS NULL OR bank >= 0);
ALTER TABLE guild_settings ADD COLUMN clock_bank DOUBLE PRECISION CHECK (clock_bank IS NULL OR clock_bank > 0);
ALTER TABLE guild_settings ADD COLUMN clock_increment DOUBLE PRECISION CHECK (clock_increment IS NULL OR clock_increment >= 0);
ALTER TABLE guild_settings ADD COLUMN clock_cap DOUBLE PRECISION CHECK (clock_cap IS NULL OR clock_cap > 0);
ALTER TABLE preferences ADD COLUMN quiet_zone TEXT;
ALTER TABLE preferences ADD COLUMN quiet_start INTEGER NOT NULL DEFAULT 1320 CHECK (quiet_start BETWEEN 0 AND 1439);
ALTER TABLE preferences ADD COLUMN quiet_end INTEGER NOT NULL DEFAULT 480 CHECK (quiet_end BETWEEN 0 AND 1439);
