-- 0006: action codes up to 64 characters. Albastini's and Twenty-Eight's codes fit in 16;
-- Cassino names every card a capture takes or a build stands on (build:7C:10:AC3S4H5C), so
-- the log's CHECK grows. A CHECK changes only with its table: the append-only log is rebuilt
-- under its own name, with the triggers that keep it in order and unchangeable.

CREATE TABLE moves_0006 AS SELECT * FROM moves;
DROP TABLE moves;
CREATE TABLE moves (
    table_id     INTEGER NOT NULL REFERENCES game_tables (id),
    move_no      INTEGER NOT NULL CHECK (move_no >= 1),
    deal_no      INTEGER NOT NULL,
    seat_no      INTEGER NOT NULL,
    user_id      INTEGER,
    action       TEXT    NOT NULL CHECK (length(action) BETWEEN 1 AND 64),
    by_computer  INTEGER NOT NULL CHECK (by_computer IN (0, 1)),
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (table_id, move_no),
    FOREIGN KEY (table_id, deal_no) REFERENCES deals (table_id, deal_no),
    FOREIGN KEY (table_id, seat_no) REFERENCES seats (table_id, seat_no),
    CHECK ((user_id IS NULL) = (by_computer = 1))
) WITHOUT ROWID;
INSERT INTO moves SELECT * FROM moves_0006;
DROP TABLE moves_0006;

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
