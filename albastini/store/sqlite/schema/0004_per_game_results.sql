-- 0004: results that any game can write. Until now a deal scored 0-2 victory points for one
-- winner and a side's match score could not go below 0: Albastini's scoring, written into the
-- CHECKs. Other games score every side (Twenty-Eight moves base cards from side to side, and a
-- side may owe more than it holds), so:
--   deal_results.vp (the winner's VP)        -> game_points, a JSON array with every team's score
--   match_results.team_vp (0 or more)        -> score, the side's final score, any sign
--   *.deals_won_2vp (Albastini's 2-VP deals) -> deals_won_big: deals won scoring 2 or more
-- A column's CHECK can only change by building its table again. The tables are rebuilt under
-- their own names (no RENAME: a rename would rewrite the triggers that name these tables),
-- the append-only triggers and the leaderboard totals with them; Albastini's data keeps its
-- meaning (its big wins are its 2-VP deals).

CREATE TABLE deal_results_0004 AS SELECT * FROM deal_results;
DROP TABLE deal_results;
CREATE TABLE deal_results (
    table_id     INTEGER NOT NULL,
    deal_no      INTEGER NOT NULL,
    card_points  TEXT    NOT NULL CHECK (json_valid(card_points) AND json_type(card_points) = 'array'),
    winner_team  INTEGER CHECK (winner_team IS NULL OR winner_team >= 0),
    game_points  TEXT    NOT NULL CHECK (json_valid(game_points) AND json_type(game_points) = 'array'),
    finished_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal_no),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no)
) WITHOUT ROWID;
INSERT INTO deal_results
SELECT r.table_id, r.deal_no, r.card_points, r.winner_team,
       (SELECT json_group_array(CASE WHEN CAST(j.key AS INTEGER) = r.winner_team THEN r.vp ELSE 0 END)
        FROM json_each(r.card_points) AS j),
       r.finished_at
FROM deal_results_0004 AS r;
DROP TABLE deal_results_0004;

CREATE TABLE match_results_0004 AS SELECT * FROM match_results;
DROP TABLE match_results;
DROP TABLE player_totals;
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
    card_points    INTEGER NOT NULL CHECK (card_points >= 0),
    finished_at    TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
INSERT INTO match_results
SELECT table_id, user_id, guild_id, game, team, team_vp, won, deals_played, deals_won,
       deals_won_2vp, card_points, finished_at
FROM match_results_0004;
DROP TABLE match_results_0004;
-- Covering index: a player's stats read only this index.
CREATE INDEX match_results_board ON match_results (
    guild_id, game, user_id, won, score, deals_played, deals_won, deals_won_big, card_points
);

-- The leaderboard's per-player sums (see 0002), one row per guild, game and player.
CREATE TABLE player_totals (
    guild_id        INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    user_id         INTEGER NOT NULL,
    matches_played  INTEGER NOT NULL,
    matches_won     INTEGER NOT NULL,
    score           INTEGER NOT NULL,
    deals_played    INTEGER NOT NULL,
    deals_won       INTEGER NOT NULL,
    deals_won_big   INTEGER NOT NULL,
    card_points     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
-- Leaderboard order: matches won, then score, then user id (stable paging).
CREATE INDEX player_totals_rank
    ON player_totals (guild_id, game, matches_won DESC, score DESC, user_id);
INSERT INTO player_totals
SELECT guild_id, game, user_id, count(*), sum(won), sum(score), sum(deals_played),
       sum(deals_won), sum(deals_won_big), sum(card_points)
FROM match_results GROUP BY guild_id, game, user_id;

CREATE TRIGGER match_results_add_to_totals AFTER INSERT ON match_results
BEGIN
    INSERT INTO player_totals VALUES (
        NEW.guild_id, NEW.game, NEW.user_id, 1, NEW.won, NEW.score, NEW.deals_played,
        NEW.deals_won, NEW.deals_won_big, NEW.card_points)
    ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
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
