-- 0002 (the SQLite store's 0007): card points below zero. Ass's sixes are worth -1, so a player
-- can end a deal, or even a match, with fewer than 0 card points; the rules' number is stored
-- (it was stored as 0, and a player's average per deal read higher than their deals added up
-- to). deal_results keeps its points as JSON (no CHECK on their sign); match_results.card_points
-- loses `>= 0` (the name PostgreSQL gave that column's CHECK in 0001).
ALTER TABLE match_results DROP CONSTRAINT match_results_card_points_check;
