-- 8: the challenges table was written but never read (the seats and matches.players say it all)
DROP TABLE challenges;
