-- 0001: tables, seats, deals, the append-only move log, results and settings.
-- Applied by albastini/store.py inside one transaction; schema_version is kept by the runner.
-- Game state is derived (settings + deals + moves replayed through the engine): nothing here
-- stores a second copy of a game's state.

-- One match hosted in one channel. `settings` is the mode (players, team size, target VP,
-- turn time, computer level, ...) as a JSON object, opaque to the store.
CREATE TABLE game_tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    game        TEXT    NOT NULL DEFAULT 'albastini',
    settings    TEXT    NOT NULL CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    status      TEXT    NOT NULL DEFAULT 'lobby'
                        CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    language    TEXT    NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'sw')),
    message_id  INTEGER,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
-- At most one lobby/running table per channel.
CREATE UNIQUE INDEX game_tables_one_active_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'running');

-- user_id NULL = a computer seat (then computer_level is set, and only then).
CREATE TABLE seats (
    table_id          INTEGER NOT NULL REFERENCES game_tables (id),
    seat_no           INTEGER NOT NULL CHECK (seat_no BETWEEN 0 AND 15),
    user_id           INTEGER,
    display_name      TEXT    NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
    computer_level    TEXT    CHECK (computer_level IS NULL OR length(computer_level) BETWEEN 1 AND 16),
    away              INTEGER NOT NULL DEFAULT 0 CHECK (away IN (0, 1)),
    computer_control  INTEGER NOT NULL DEFAULT 0 CHECK (computer_control IN (0, 1)),
    timeouts          INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    PRIMARY KEY (table_id, seat_no),
    CHECK ((user_id IS NULL) = (computer_level IS NOT NULL))
) WITHOUT ROWID;
CREATE UNIQUE INDEX seats_one_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;

-- The engine derives the deck from the seed; `deck` (space-separated card codes) is for audit.
CREATE TABLE deals (
    table_id     INTEGER NOT NULL REFERENCES game_tables (id),
    deal_no      INTEGER NOT NULL CHECK (deal_no >= 1),
    dealer_seat  INTEGER NOT NULL,
    seed         INTEGER NOT NULL,  -- unsigned 64-bit seeds are stored two's complement
    deck         TEXT,
    started_at   TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal_no),
    FOREIGN KEY (table_id, dealer_seat) REFERENCES seats (table_id, seat_no)
) WITHOUT ROWID;

-- The action log: append-only, numbered 1, 2, 3... per table without gaps.
CREATE TABLE moves (
    table_id     INTEGER NOT NULL REFERENCES game_tables (id),
    move_no      INTEGER NOT NULL CHECK (move_no >= 1),
    deal_no      INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    user_id      INTEGER,
    action       TEXT    NOT NULL CHECK (length(action) BETWEEN 1 AND 16),
    by_computer  INTEGER NOT NULL CHECK (by_computer IN (0, 1)),
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (table_id, move_no),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no),
    FOREIGN KEY (table_id, seat_no) REFERENCES seats (table_id, seat_no),
    CHECK ((user_id IS NULL) = (by_computer = 1))
) WITHOUT ROWID;

-- The order rules live in the database too, so no code path can write a gap or rewrite history.
CREATE TRIGGER moves_in_order BEFORE INSERT ON moves
BEGIN
    SELECT CASE
        WHEN (SELECT status FROM game_tables WHERE id = NEW.table_id) IS NULL
            THEN RAISE(ABORT, 'unknown_table')
        WHEN (SELECT status FROM game_tables WHERE id = NEW.table_id) IS NOT 'running'
            THEN RAISE(ABORT, 'table_not_running')
        WHEN NEW.move_no <= (SELECT coalesce(max(move_no), 0) FROM moves WHERE table_id = NEW.table_id)
            THEN RAISE(ABORT, 'stale_move')
        WHEN NEW.move_no > (SELECT coalesce(max(move_no), 0) FROM moves WHERE table_id = NEW.table_id) + 1
            THEN RAISE(ABORT, 'move_gap')
        WHEN NEW.deal_no IS NOT (SELECT max(deal_no) FROM deals WHERE table_id = NEW.table_id)
            THEN RAISE(ABORT, 'not_current_deal')
        WHEN EXISTS (SELECT 1 FROM deal_results WHERE table_id = NEW.table_id AND deal_no = NEW.deal_no)
            THEN RAISE(ABORT, 'deal_finished')
    END;
END;
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves_append_only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'moves_append_only');
END;

-- card_points: JSON array, one total per team (team index = position). winner_team NULL = tie.
CREATE TABLE deal_results (
    table_id     INTEGER NOT NULL,
    deal_no      INTEGER NOT NULL,
    card_points  TEXT    NOT NULL CHECK (json_valid(card_points) AND json_type(card_points) = 'array'),
    winner_team  INTEGER CHECK (winner_team IS NULL OR winner_team >= 0),
    vp           INTEGER NOT NULL CHECK (vp BETWEEN 0 AND 2),
    finished_at  TEXT    NOT NULL,
    PRIMARY KEY (table_id, deal_no),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no),
    CHECK ((winner_team IS NULL) = (vp = 0))
) WITHOUT ROWID;

-- One row per person holding a seat at the end of a finished match; the leaderboard is plain
-- SQL over this table.
CREATE TABLE match_results (
    table_id       INTEGER NOT NULL REFERENCES game_tables (id),
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER NOT NULL,
    game           TEXT    NOT NULL,
    team           INTEGER NOT NULL CHECK (team >= 0),
    team_vp        INTEGER NOT NULL CHECK (team_vp >= 0),
    won            INTEGER NOT NULL CHECK (won IN (0, 1)),
    deals_played   INTEGER NOT NULL CHECK (deals_played >= 0),
    deals_won      INTEGER NOT NULL CHECK (deals_won BETWEEN 0 AND deals_played),
    deals_won_2vp  INTEGER NOT NULL CHECK (deals_won_2vp BETWEEN 0 AND deals_won),
    card_points    INTEGER NOT NULL CHECK (card_points >= 0),
    finished_at    TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
) WITHOUT ROWID;
-- Covering index: the leaderboard and user stats read only this index, in user order.
CREATE INDEX match_results_board ON match_results (
    guild_id, game, user_id, won, team_vp, deals_played, deals_won, deals_won_2vp, card_points
);

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    turn_time   INTEGER NOT NULL CHECK (turn_time BETWEEN 15 AND 600),
    target_vp   INTEGER NOT NULL CHECK (target_vp BETWEEN 1 AND 21),
    language    TEXT    NOT NULL CHECK (language IN ('en', 'sw')),
    updated_at  TEXT    NOT NULL
);

CREATE TABLE user_preferences (
    user_id     INTEGER PRIMARY KEY,
    language    TEXT    CHECK (language IS NULL OR language IN ('en', 'sw')),
    updated_at  TEXT    NOT NULL
);
