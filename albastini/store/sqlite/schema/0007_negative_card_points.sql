-- 0007: card points below zero. Ass's sixes are worth -1, so a player can end a deal, or even a
-- match, with fewer than 0 card points; the rules' number is stored (it was stored as 0, and a
-- player's average per deal read higher than their deals added up to). deal_results keeps its
-- points as JSON (no CHECK on their sign); match_results.card_points loses `>= 0`.
-- A column's CHECK changes only with its table: match_results is rebuilt under its own name
-- (see 0004), with the same columns in the same order, its indexes and its triggers. The rows
-- are copied before the totals' trigger exists again: player_totals already counts them.

CREATE TABLE match_results_0007 AS SELECT * FROM match_results;
DROP TABLE match_results;
CREATE TABLE match_results (
    table_id       INTEGER NOT NULL REFERENCES game_tables (id),
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    team           INTEGER NOT NULL CHECK (team >= 0),
    score          INTEGER NOT NULL,
    won            INTEGER NOT NULL CHECK (won IN (0, 1)),
    deals_played   INTEGER NOT NULL CHECK (deals_played >= 0),
    deals_won      INTEGER NOT NULL CHECK (deals_won BETWEEN 0 AND deals_played),
    deals_won_big  INTEGER NOT NULL CHECK (deals_won_big BETWEEN 0 AND deals_won),
    card_points    INTEGER NOT NULL,
    finished_at    TEXT    NOT NULL,
    season         INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1),
    rating_mu      REAL,
    rating_sigma   REAL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
INSERT INTO match_results
SELECT table_id, user_id, guild_id, game, team, score, won, deals_played, deals_won,
       deals_won_big, card_points, finished_at, season, rating_mu, rating_sigma
FROM match_results_0007;
DROP TABLE match_results_0007;

-- Covering index: a player's stats read only this index.
CREATE INDEX match_results_board ON match_results (
    guild_id, game, user_id, won, score, deals_played, deals_won, deals_won_big, card_points
);
-- the history: a player's results newest first
CREATE INDEX match_results_of_user
    ON match_results (user_id, guild_id, finished_at DESC, table_id DESC);

CREATE TRIGGER match_results_add_to_totals AFTER INSERT ON match_results
BEGIN
    INSERT INTO player_totals
    SELECT NEW.guild_id, NEW.game, s.season, NEW.user_id, 1, NEW.won, NEW.score,
           NEW.deals_played, NEW.deals_won, NEW.deals_won_big, NEW.card_points
    FROM (SELECT 0 AS season UNION ALL SELECT NEW.season) AS s WHERE true
    ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET
        matches_played = matches_played + 1,
        matches_won    = matches_won + excluded.matches_won,
        score          = score + excluded.score,
        deals_played   = deals_played + excluded.deals_played,
        deals_won      = deals_won + excluded.deals_won,
        deals_won_big  = deals_won_big + excluded.deals_won_big,
        card_points    = card_points + excluded.card_points;
END;
CREATE TRIGGER match_results_no_update BEFORE UPDATE ON match_results
BEGIN
    SELECT RAISE(ABORT, 'match_results_append_only');
END;
CREATE TRIGGER match_results_no_delete BEFORE DELETE ON match_results
BEGIN
    SELECT RAISE(ABORT, 'match_results_append_only');
END;
