-- 22: kept for another branch's migration (polish-c), merged before this history's 23. Nothing to do: when that
-- branch's 0022 is merged, this file is deleted (no released database has applied it).
SELECT 1;
