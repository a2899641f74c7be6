-- 0002: per-player totals for the leaderboard, kept by triggers in the same transaction as
-- the results they sum.
-- Why: ranking means summing every result row of a guild; with the covering index of 0001 that
-- still took 60-70 ms over 100,000 results (the aggregation itself, not the I/O). This table is
-- a pure function of match_results, which is made append-only below so the two cannot drift;
-- user_stats() still reads match_results directly, and the tests compare the two.

CREATE TABLE player_totals (
    guild_id        INTEGER NOT NULL,
    game            TEXT    NOT NULL,
    user_id         INTEGER NOT NULL,
    matches_played  INTEGER NOT NULL,
    matches_won     INTEGER NOT NULL,
    vp              INTEGER NOT NULL,
    deals_played    INTEGER NOT NULL,
    deals_won       INTEGER NOT NULL,
    deals_won_2vp   INTEGER NOT NULL,
    card_points     INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
-- Leaderboard order: matches won, then VP, then user id (stable paging).
CREATE INDEX player_totals_rank
    ON player_totals (guild_id, game, matches_won DESC, vp DESC, user_id);

INSERT INTO player_totals
SELECT guild_id, game, user_id, count(*), sum(won), sum(team_vp), sum(deals_played),
       sum(deals_won), sum(deals_won_2vp), sum(card_points)
FROM match_results GROUP BY guild_id, game, user_id;

CREATE TRIGGER match_results_add_to_totals AFTER INSERT ON match_results
BEGIN
    INSERT INTO player_totals VALUES (
        NEW.guild_id, NEW.game, NEW.user_id, 1, NEW.won, NEW.team_vp, NEW.deals_played,
        NEW.deals_won, NEW.deals_won_2vp, NEW.card_points)
    ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
        matches_played = matches_played + 1,
        matches_won    = matches_won + excluded.matches_won,
        vp             = vp + excluded.vp,
        deals_played   = deals_played + excluded.deals_played,
        deals_won      = deals_won + excluded.deals_won,
        deals_won_2vp  = deals_won_2vp + excluded.deals_won_2vp,
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
