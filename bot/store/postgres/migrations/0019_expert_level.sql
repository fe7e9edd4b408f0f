-- 19 (issue 39): the computer's new level, expert, may hold a seat.
ALTER TABLE seats DROP CONSTRAINT seats_computer_check;
ALTER TABLE seats ADD CONSTRAINT seats_computer_check
    CHECK (computer IS NULL OR computer IN ('random', 'easy', 'medium', 'hard', 'expert'));
