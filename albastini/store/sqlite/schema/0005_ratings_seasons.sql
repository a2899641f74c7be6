-- 0005: skill ratings, seasons and what a match's history needs.
--   seasons        a guild's seasons after the first (season 1 needs no row: every guild starts
--                  in it); a server admin starts the next one.
--   match_results  gains the season it counted for, and the player's rating after the match
--                  (the trend a player's stats show).
--   match_teams    every side of a finished match: its final score and the levels of the
--                  computers on it, so ratings can be computed again from the stored results.
--   ratings        per game and player, in three scopes: a guild's season (guild, season),
--                  a guild all time (guild, 0), every guild all time (0, 0); `rating` is the
--                  conservative score mu - 3 sigma that ranks them.
--   player_totals  per season too (season 0 = all time), so a leaderboard shows one season.

CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    season      INTEGER NOT NULL CHECK (season >= 2),
    started_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;

ALTER TABLE match_results ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);
ALTER TABLE match_results ADD COLUMN rating_mu REAL;
ALTER TABLE match_results ADD COLUMN rating_sigma REAL;
-- the history: a guild's finished tables newest first, a player's results newest first
CREATE INDEX game_tables_finished ON game_tables (guild_id, updated_at DESC, id DESC)
    WHERE status = 'finished';
CREATE INDEX match_results_of_user
    ON match_results (user_id, guild_id, finished_at DESC, table_id DESC);

CREATE TABLE match_teams (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id),
    team       INTEGER NOT NULL CHECK (team >= 0),
    score      INTEGER NOT NULL,
    computers  TEXT    NOT NULL DEFAULT '[]'
                       CHECK (json_valid(computers) AND json_type(computers) = 'array'),
    PRIMARY KEY (table_id, team)
) WITHOUT ROWID;

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    season      INTEGER NOT NULL CHECK (season >= 0),
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    matches     INTEGER NOT NULL CHECK (matches >= 1),
    rating      REAL    GENERATED ALWAYS AS (mu - 3 * sigma) STORED,
    PRIMARY KEY (guild_id, game, season, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_rank ON ratings (guild_id, game, season, rating DESC, user_id);

-- player_totals again, with the season (0 = all time); the trigger adds to both rows.
DROP TRIGGER match_results_add_to_totals;
DROP TABLE player_totals;
CREATE TABLE player_totals (
    guild_id        INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    season          INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    matches_played  INTEGER NOT NULL,
    matches_won     INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    deals_played    INTEGER NOT NULL,
    deals_won       INTEGER NOT NULL,
    deals_won_big   INTEGER NOT NULL,
    card_points     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, season, user_id)
) WITHOUT ROWID;
CREATE INDEX player_totals_rank
    ON player_totals (guild_id, game, season, matches_won DESC, score DESC, user_id);
INSERT INTO player_totals
SELECT guild_id, game, s.season, user_id, count(*), sum(won), sum(score), sum(deals_played),
       sum(deals_won), sum(deals_won_big), sum(card_points)
FROM match_results, (SELECT 0 AS season UNION ALL SELECT 1) AS s
GROUP BY guild_id, game, s.season, user_id;

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
