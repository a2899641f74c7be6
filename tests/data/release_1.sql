BEGIN TRANSACTION;
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
INSERT INTO "deal_results" VALUES(1,1,'[91, 29]',0,1,'2026-11-23T02:00:54.529+00:00');
INSERT INTO "deal_results" VALUES(1,2,'[24, 96]',1,1,'2026-11-23T02:00:54.548+00:00');
INSERT INTO "deal_results" VALUES(1,3,'[26, 94]',1,1,'2026-11-23T02:00:54.564+00:00');
INSERT INTO "deal_results" VALUES(2,1,'[30, 24, 66]',2,1,'2026-11-23T02:00:54.577+00:00');
INSERT INTO "deal_results" VALUES(3,1,'[66, 54]',0,1,'2026-11-23T02:00:54.611+00:00');
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
INSERT INTO "deals" VALUES(1,1,3,7574918311415852851,NULL,'2026-11-23T02:00:54.509+00:00');
INSERT INTO "deals" VALUES(1,2,0,1141871488190747343,NULL,'2026-11-23T02:00:54.530+00:00');
INSERT INTO "deals" VALUES(1,3,2,4986947095633979044,NULL,'2026-11-23T02:00:54.548+00:00');
INSERT INTO "deals" VALUES(2,1,0,4904253631570555220,NULL,'2026-11-23T02:00:54.567+00:00');
INSERT INTO "deals" VALUES(3,1,1,5400854890626002704,NULL,'2026-11-23T02:00:54.578+00:00');
INSERT INTO "deals" VALUES(3,2,0,2655757106302864442,NULL,'2026-11-23T02:00:54.611+00:00');
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
INSERT INTO "game_tables" VALUES(1,1,100,10,'albastini','{"computer_level":"greedy","host_id":10,"players":4,"seating":[3,1,0,2],"target":2,"team_size":2,"turn_time":60}','finished','en',NULL,'2026-11-23T02:00:54.507+00:00','2026-11-23T02:00:54.565+00:00');
INSERT INTO "game_tables" VALUES(2,1,101,20,'albastini','{"computer_level":"normal","host_id":20,"players":3,"seating":[1,0,2],"target":1,"team_size":1,"turn_time":60}','finished','en',NULL,'2026-11-23T02:00:54.566+00:00','2026-11-23T02:00:54.577+00:00');
INSERT INTO "game_tables" VALUES(3,1,102,30,'albastini','{"computer_level":"random","host_id":30,"players":2,"seating":[0,1],"target":5,"team_size":1,"turn_time":60}','running','en',NULL,'2026-11-23T02:00:54.578+00:00','2026-11-23T02:00:54.578+00:00');
INSERT INTO "game_tables" VALUES(4,1,103,10,'albastini','{"computer_level":"normal","host_id":10,"players":5,"target":5,"team_size":1,"turn_time":60}','lobby','en',NULL,'2026-11-23T02:00:54.619+00:00','2026-11-23T02:00:54.619+00:00');
INSERT INTO "game_tables" VALUES(5,1,104,20,'albastini','{"computer_level":"normal","host_id":20,"players":6,"target":5,"team_size":2,"turn_time":60}','cancelled','en',NULL,'2026-11-23T02:00:54.619+00:00','2026-11-23T02:00:54.620+00:00');
CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    turn_time   INTEGER NOT NULL CHECK (turn_time BETWEEN 15 AND 600),
    target_vp   INTEGER NOT NULL CHECK (target_vp BETWEEN 1 AND 21),
    language    TEXT    NOT NULL CHECK (language IN ('en', 'sw')),
    updated_at  TEXT    NOT NULL
, language_chosen INTEGER NOT NULL DEFAULT 0
    CHECK (language_chosen IN (0, 1)));
INSERT INTO "guild_settings" VALUES(1,90,3,'sw','2026-11-23T02:00:54.620+00:00',1);
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
INSERT INTO "match_results" VALUES(1,10,1,'albastini',0,1,0,3,1,0,141,'2026-11-23T02:00:54.565+00:00');
INSERT INTO "match_results" VALUES(1,20,1,'albastini',1,2,1,3,2,0,219,'2026-11-23T02:00:54.565+00:00');
INSERT INTO "match_results" VALUES(2,10,1,'albastini',0,0,0,1,0,0,30,'2026-11-23T02:00:54.577+00:00');
INSERT INTO "match_results" VALUES(2,20,1,'albastini',1,0,0,1,0,0,24,'2026-11-23T02:00:54.577+00:00');
INSERT INTO "match_results" VALUES(2,30,1,'albastini',2,1,1,1,1,0,66,'2026-11-23T02:00:54.577+00:00');
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
INSERT INTO "moves" VALUES(1,1,1,1,20,'bid:QS',0,'2026-11-23T02:00:54.509+00:00');
INSERT INTO "moves" VALUES(1,2,1,2,NULL,'bid:4D',1,'2026-11-23T02:00:54.510+00:00');
INSERT INTO "moves" VALUES(1,3,1,1,20,'play:JS',0,'2026-11-23T02:00:54.511+00:00');
INSERT INTO "moves" VALUES(1,4,1,0,10,'play:KH',0,'2026-11-23T02:00:54.512+00:00');
INSERT INTO "moves" VALUES(1,5,1,2,NULL,'play:4H',1,'2026-11-23T02:00:54.512+00:00');
INSERT INTO "moves" VALUES(1,6,1,3,NULL,'play:6C',1,'2026-11-23T02:00:54.512+00:00');
INSERT INTO "moves" VALUES(1,7,1,1,20,'play:5H',0,'2026-11-23T02:00:54.513+00:00');
INSERT INTO "moves" VALUES(1,8,1,0,10,'play:5D',0,'2026-11-23T02:00:54.513+00:00');
INSERT INTO "moves" VALUES(1,9,1,2,NULL,'play:4D',1,'2026-11-23T02:00:54.513+00:00');
INSERT INTO "moves" VALUES(1,10,1,3,NULL,'play:QC',1,'2026-11-23T02:00:54.514+00:00');
INSERT INTO "moves" VALUES(1,11,1,1,20,'play:3D',0,'2026-11-23T02:00:54.514+00:00');
INSERT INTO "moves" VALUES(1,12,1,0,10,'play:JD',0,'2026-11-23T02:00:54.514+00:00');
INSERT INTO "moves" VALUES(1,13,1,2,NULL,'play:AD',1,'2026-11-23T02:00:54.515+00:00');
INSERT INTO "moves" VALUES(1,14,1,3,NULL,'play:4S',1,'2026-11-23T02:00:54.515+00:00');
INSERT INTO "moves" VALUES(1,15,1,3,NULL,'play:JH',1,'2026-11-23T02:00:54.515+00:00');
INSERT INTO "moves" VALUES(1,16,1,1,20,'play:AH',0,'2026-11-23T02:00:54.517+00:00');
INSERT INTO "moves" VALUES(1,17,1,0,10,'play:QD',0,'2026-11-23T02:00:54.517+00:00');
INSERT INTO "moves" VALUES(1,18,1,2,NULL,'play:3H',1,'2026-11-23T02:00:54.517+00:00');
INSERT INTO "moves" VALUES(1,19,1,1,20,'play:JC',0,'2026-11-23T02:00:54.519+00:00');
INSERT INTO "moves" VALUES(1,20,1,0,10,'play:6H',0,'2026-11-23T02:00:54.519+00:00');
INSERT INTO "moves" VALUES(1,21,1,2,NULL,'play:3C',1,'2026-11-23T02:00:54.519+00:00');
INSERT INTO "moves" VALUES(1,22,1,3,NULL,'play:6S',1,'2026-11-23T02:00:54.520+00:00');
INSERT INTO "moves" VALUES(1,23,1,3,NULL,'play:KD',1,'2026-11-23T02:00:54.520+00:00');
INSERT INTO "moves" VALUES(1,24,1,1,20,'play:6D',0,'2026-11-23T02:00:54.521+00:00');
INSERT INTO "moves" VALUES(1,25,1,0,10,'play:3S',0,'2026-11-23T02:00:54.522+00:00');
INSERT INTO "moves" VALUES(1,26,1,2,NULL,'play:5S',1,'2026-11-23T02:00:54.522+00:00');
INSERT INTO "moves" VALUES(1,27,1,2,NULL,'play:4C',1,'2026-11-23T02:00:54.522+00:00');
INSERT INTO "moves" VALUES(1,28,1,3,NULL,'play:QS',1,'2026-11-23T02:00:54.523+00:00');
INSERT INTO "moves" VALUES(1,29,1,1,20,'play:AC',0,'2026-11-23T02:00:54.524+00:00');
INSERT INTO "moves" VALUES(1,30,1,0,10,'play:KC',0,'2026-11-23T02:00:54.524+00:00');
INSERT INTO "moves" VALUES(1,31,1,3,NULL,'play:7S',1,'2026-11-23T02:00:54.525+00:00');
INSERT INTO "moves" VALUES(1,32,1,1,20,'play:KS',0,'2026-11-23T02:00:54.526+00:00');
INSERT INTO "moves" VALUES(1,33,1,0,10,'play:7D',0,'2026-11-23T02:00:54.526+00:00');
INSERT INTO "moves" VALUES(1,34,1,2,NULL,'play:5C',1,'2026-11-23T02:00:54.527+00:00');
INSERT INTO "moves" VALUES(1,35,1,3,NULL,'play:AS',1,'2026-11-23T02:00:54.527+00:00');
INSERT INTO "moves" VALUES(1,36,1,1,20,'play:7C',0,'2026-11-23T02:00:54.528+00:00');
INSERT INTO "moves" VALUES(1,37,1,0,10,'play:7H',0,'2026-11-23T02:00:54.529+00:00');
INSERT INTO "moves" VALUES(1,38,1,2,NULL,'play:QH',1,'2026-11-23T02:00:54.529+00:00');
INSERT INTO "moves" VALUES(1,39,2,2,NULL,'pass',1,'2026-11-23T02:00:54.530+00:00');
INSERT INTO "moves" VALUES(1,40,2,1,20,'bid:7S',0,'2026-11-23T02:00:54.530+00:00');
INSERT INTO "moves" VALUES(1,41,2,2,NULL,'play:6S',1,'2026-11-23T02:00:54.531+00:00');
INSERT INTO "moves" VALUES(1,42,2,3,NULL,'play:3S',1,'2026-11-23T02:00:54.531+00:00');
INSERT INTO "moves" VALUES(1,43,2,1,20,'play:7S',0,'2026-11-23T02:00:54.532+00:00');
INSERT INTO "moves" VALUES(1,44,2,0,10,'play:KS',0,'2026-11-23T02:00:54.532+00:00');
INSERT INTO "moves" VALUES(1,45,2,1,20,'play:JC',0,'2026-11-23T02:00:54.533+00:00');
INSERT INTO "moves" VALUES(1,46,2,0,10,'play:QD',0,'2026-11-23T02:00:54.533+00:00');
INSERT INTO "moves" VALUES(1,47,2,2,NULL,'play:4S',1,'2026-11-23T02:00:54.533+00:00');
INSERT INTO "moves" VALUES(1,48,2,3,NULL,'play:5H',1,'2026-11-23T02:00:54.534+00:00');
INSERT INTO "moves" VALUES(1,49,2,3,NULL,'play:4D',1,'2026-11-23T02:00:54.534+00:00');
INSERT INTO "moves" VALUES(1,50,2,1,20,'play:6H',0,'2026-11-23T02:00:54.534+00:00');
INSERT INTO "moves" VALUES(1,51,2,0,10,'play:AC',0,'2026-11-23T02:00:54.534+00:00');
INSERT INTO "moves" VALUES(1,52,2,2,NULL,'play:QC',1,'2026-11-23T02:00:54.535+00:00');
INSERT INTO "moves" VALUES(1,53,2,1,20,'play:4C',0,'2026-11-23T02:00:54.536+00:00');
INSERT INTO "moves" VALUES(1,54,2,0,10,'play:AD',0,'2026-11-23T02:00:54.537+00:00');
INSERT INTO "moves" VALUES(1,55,2,2,NULL,'play:JS',1,'2026-11-23T02:00:54.537+00:00');
INSERT INTO "moves" VALUES(1,56,2,3,NULL,'play:5D',1,'2026-11-23T02:00:54.538+00:00');
INSERT INTO "moves" VALUES(1,57,2,1,20,'play:7C',0,'2026-11-23T02:00:54.538+00:00');
INSERT INTO "moves" VALUES(1,58,2,0,10,'play:KH',0,'2026-11-23T02:00:54.538+00:00');
INSERT INTO "moves" VALUES(1,59,2,2,NULL,'play:7H',1,'2026-11-23T02:00:54.539+00:00');
INSERT INTO "moves" VALUES(1,60,2,3,NULL,'play:5S',1,'2026-11-23T02:00:54.539+00:00');
INSERT INTO "moves" VALUES(1,61,2,2,NULL,'play:5C',1,'2026-11-23T02:00:54.540+00:00');
INSERT INTO "moves" VALUES(1,62,2,3,NULL,'play:6D',1,'2026-11-23T02:00:54.540+00:00');
INSERT INTO "moves" VALUES(1,63,2,1,20,'play:4H',0,'2026-11-23T02:00:54.540+00:00');
INSERT INTO "moves" VALUES(1,64,2,0,10,'play:6C',0,'2026-11-23T02:00:54.541+00:00');
INSERT INTO "moves" VALUES(1,65,2,1,20,'play:QH',0,'2026-11-23T02:00:54.541+00:00');
INSERT INTO "moves" VALUES(1,66,2,0,10,'play:KC',0,'2026-11-23T02:00:54.542+00:00');
INSERT INTO "moves" VALUES(1,67,2,2,NULL,'play:7D',1,'2026-11-23T02:00:54.542+00:00');
INSERT INTO "moves" VALUES(1,68,2,3,NULL,'play:JH',1,'2026-11-23T02:00:54.542+00:00');
INSERT INTO "moves" VALUES(1,69,2,3,NULL,'play:JD',1,'2026-11-23T02:00:54.543+00:00');
INSERT INTO "moves" VALUES(1,70,2,1,20,'play:3D',0,'2026-11-23T02:00:54.544+00:00');
INSERT INTO "moves" VALUES(1,71,2,0,10,'play:3C',0,'2026-11-23T02:00:54.545+00:00');
INSERT INTO "moves" VALUES(1,72,2,2,NULL,'play:AH',1,'2026-11-23T02:00:54.545+00:00');
INSERT INTO "moves" VALUES(1,73,2,2,NULL,'play:AS',1,'2026-11-23T02:00:54.546+00:00');
INSERT INTO "moves" VALUES(1,74,2,3,NULL,'play:KD',1,'2026-11-23T02:00:54.546+00:00');
INSERT INTO "moves" VALUES(1,75,2,1,20,'play:3H',0,'2026-11-23T02:00:54.547+00:00');
INSERT INTO "moves" VALUES(1,76,2,0,10,'play:QS',0,'2026-11-23T02:00:54.548+00:00');
INSERT INTO "moves" VALUES(1,77,3,3,NULL,'bid:3C',1,'2026-11-23T02:00:54.548+00:00');
INSERT INTO "moves" VALUES(1,78,3,0,10,'bid:6S',0,'2026-11-23T02:00:54.549+00:00');
INSERT INTO "moves" VALUES(1,79,3,3,NULL,'play:3H',1,'2026-11-23T02:00:54.549+00:00');
INSERT INTO "moves" VALUES(1,80,3,1,20,'play:QS',0,'2026-11-23T02:00:54.550+00:00');
INSERT INTO "moves" VALUES(1,81,3,0,10,'play:KS',0,'2026-11-23T02:00:54.551+00:00');
INSERT INTO "moves" VALUES(1,82,3,2,NULL,'play:6C',1,'2026-11-23T02:00:54.551+00:00');
INSERT INTO "moves" VALUES(1,83,3,2,NULL,'play:4S',1,'2026-11-23T02:00:54.551+00:00');
INSERT INTO "moves" VALUES(1,84,3,3,NULL,'play:4H',1,'2026-11-23T02:00:54.551+00:00');
INSERT INTO "moves" VALUES(1,85,3,1,20,'play:JS',0,'2026-11-23T02:00:54.552+00:00');
INSERT INTO "moves" VALUES(1,86,3,0,10,'play:6S',0,'2026-11-23T02:00:54.552+00:00');
INSERT INTO "moves" VALUES(1,87,3,1,20,'play:5D',0,'2026-11-23T02:00:54.552+00:00');
INSERT INTO "moves" VALUES(1,88,3,0,10,'play:3S',0,'2026-11-23T02:00:54.552+00:00');
INSERT INTO "moves" VALUES(1,89,3,2,NULL,'play:4D',1,'2026-11-23T02:00:54.553+00:00');
INSERT INTO "moves" VALUES(1,90,3,3,NULL,'play:5H',1,'2026-11-23T02:00:54.553+00:00');
INSERT INTO "moves" VALUES(1,91,3,1,20,'play:JC',0,'2026-11-23T02:00:54.554+00:00');
INSERT INTO "moves" VALUES(1,92,3,0,10,'play:QH',0,'2026-11-23T02:00:54.555+00:00');
INSERT INTO "moves" VALUES(1,93,3,2,NULL,'play:7S',1,'2026-11-23T02:00:54.555+00:00');
INSERT INTO "moves" VALUES(1,94,3,3,NULL,'play:AC',1,'2026-11-23T02:00:54.555+00:00');
INSERT INTO "moves" VALUES(1,95,3,3,NULL,'play:3D',1,'2026-11-23T02:00:54.555+00:00');
INSERT INTO "moves" VALUES(1,96,3,1,20,'play:6H',0,'2026-11-23T02:00:54.556+00:00');
INSERT INTO "moves" VALUES(1,97,3,0,10,'play:JH',0,'2026-11-23T02:00:54.556+00:00');
INSERT INTO "moves" VALUES(1,98,3,2,NULL,'play:3C',1,'2026-11-23T02:00:54.556+00:00');
INSERT INTO "moves" VALUES(1,99,3,2,NULL,'play:AS',1,'2026-11-23T02:00:54.557+00:00');
INSERT INTO "moves" VALUES(1,100,3,3,NULL,'play:5S',1,'2026-11-23T02:00:54.557+00:00');
INSERT INTO "moves" VALUES(1,101,3,1,20,'play:6D',0,'2026-11-23T02:00:54.557+00:00');
INSERT INTO "moves" VALUES(1,102,3,0,10,'play:7D',0,'2026-11-23T02:00:54.557+00:00');
INSERT INTO "moves" VALUES(1,103,3,2,NULL,'play:5C',1,'2026-11-23T02:00:54.558+00:00');
INSERT INTO "moves" VALUES(1,104,3,3,NULL,'play:KH',1,'2026-11-23T02:00:54.558+00:00');
INSERT INTO "moves" VALUES(1,105,3,1,20,'play:KD',0,'2026-11-23T02:00:54.559+00:00');
INSERT INTO "moves" VALUES(1,106,3,0,10,'play:QD',0,'2026-11-23T02:00:54.560+00:00');
INSERT INTO "moves" VALUES(1,107,3,2,NULL,'play:QC',1,'2026-11-23T02:00:54.560+00:00');
INSERT INTO "moves" VALUES(1,108,3,3,NULL,'play:7H',1,'2026-11-23T02:00:54.560+00:00');
INSERT INTO "moves" VALUES(1,109,3,1,20,'play:AD',0,'2026-11-23T02:00:54.562+00:00');
INSERT INTO "moves" VALUES(1,110,3,0,10,'play:JD',0,'2026-11-23T02:00:54.562+00:00');
INSERT INTO "moves" VALUES(1,111,3,2,NULL,'play:7C',1,'2026-11-23T02:00:54.562+00:00');
INSERT INTO "moves" VALUES(1,112,3,3,NULL,'play:AH',1,'2026-11-23T02:00:54.563+00:00');
INSERT INTO "moves" VALUES(1,113,3,1,20,'play:KC',0,'2026-11-23T02:00:54.564+00:00');
INSERT INTO "moves" VALUES(1,114,3,0,10,'play:4C',0,'2026-11-23T02:00:54.564+00:00');
INSERT INTO "moves" VALUES(2,1,1,2,30,'bid:3H',0,'2026-11-23T02:00:54.567+00:00');
INSERT INTO "moves" VALUES(2,2,1,1,10,'bid:7S',0,'2026-11-23T02:00:54.567+00:00');
INSERT INTO "moves" VALUES(2,3,1,2,30,'play:AS',0,'2026-11-23T02:00:54.567+00:00');
INSERT INTO "moves" VALUES(2,4,1,1,10,'play:QS',0,'2026-11-23T02:00:54.568+00:00');
INSERT INTO "moves" VALUES(2,5,1,0,20,'play:6H',0,'2026-11-23T02:00:54.568+00:00');
INSERT INTO "moves" VALUES(2,6,1,2,30,'play:AC',0,'2026-11-23T02:00:54.568+00:00');
INSERT INTO "moves" VALUES(2,7,1,1,10,'play:JC',0,'2026-11-23T02:00:54.568+00:00');
INSERT INTO "moves" VALUES(2,8,1,0,20,'play:KD',0,'2026-11-23T02:00:54.569+00:00');
INSERT INTO "moves" VALUES(2,9,1,2,30,'play:5C',0,'2026-11-23T02:00:54.569+00:00');
INSERT INTO "moves" VALUES(2,10,1,1,10,'play:AD',0,'2026-11-23T02:00:54.569+00:00');
INSERT INTO "moves" VALUES(2,11,1,0,20,'play:KH',0,'2026-11-23T02:00:54.569+00:00');
INSERT INTO "moves" VALUES(2,12,1,2,30,'play:JS',0,'2026-11-23T02:00:54.570+00:00');
INSERT INTO "moves" VALUES(2,13,1,1,10,'play:3C',0,'2026-11-23T02:00:54.570+00:00');
INSERT INTO "moves" VALUES(2,14,1,0,20,'play:JH',0,'2026-11-23T02:00:54.570+00:00');
INSERT INTO "moves" VALUES(2,15,1,2,30,'play:4C',0,'2026-11-23T02:00:54.570+00:00');
INSERT INTO "moves" VALUES(2,16,1,1,10,'play:KS',0,'2026-11-23T02:00:54.571+00:00');
INSERT INTO "moves" VALUES(2,17,1,0,20,'play:7H',0,'2026-11-23T02:00:54.571+00:00');
INSERT INTO "moves" VALUES(2,18,1,1,10,'play:5D',0,'2026-11-23T02:00:54.571+00:00');
INSERT INTO "moves" VALUES(2,19,1,0,20,'play:6D',0,'2026-11-23T02:00:54.571+00:00');
INSERT INTO "moves" VALUES(2,20,1,2,30,'play:7C',0,'2026-11-23T02:00:54.572+00:00');
INSERT INTO "moves" VALUES(2,21,1,0,20,'play:5H',0,'2026-11-23T02:00:54.572+00:00');
INSERT INTO "moves" VALUES(2,22,1,2,30,'play:3H',0,'2026-11-23T02:00:54.572+00:00');
INSERT INTO "moves" VALUES(2,23,1,1,10,'play:AH',0,'2026-11-23T02:00:54.573+00:00');
INSERT INTO "moves" VALUES(2,24,1,1,10,'play:4D',0,'2026-11-23T02:00:54.573+00:00');
INSERT INTO "moves" VALUES(2,25,1,0,20,'play:7D',0,'2026-11-23T02:00:54.573+00:00');
INSERT INTO "moves" VALUES(2,26,1,2,30,'play:KC',0,'2026-11-23T02:00:54.573+00:00');
INSERT INTO "moves" VALUES(2,27,1,0,20,'play:QD',0,'2026-11-23T02:00:54.574+00:00');
INSERT INTO "moves" VALUES(2,28,1,2,30,'play:7S',0,'2026-11-23T02:00:54.574+00:00');
INSERT INTO "moves" VALUES(2,29,1,1,10,'play:6C',0,'2026-11-23T02:00:54.574+00:00');
INSERT INTO "moves" VALUES(2,30,1,2,30,'play:4S',0,'2026-11-23T02:00:54.574+00:00');
INSERT INTO "moves" VALUES(2,31,1,1,10,'play:QH',0,'2026-11-23T02:00:54.575+00:00');
INSERT INTO "moves" VALUES(2,32,1,0,20,'play:4H',0,'2026-11-23T02:00:54.575+00:00');
INSERT INTO "moves" VALUES(2,33,1,2,30,'play:JD',0,'2026-11-23T02:00:54.575+00:00');
INSERT INTO "moves" VALUES(2,34,1,1,10,'play:3S',0,'2026-11-23T02:00:54.575+00:00');
INSERT INTO "moves" VALUES(2,35,1,0,20,'play:QC',0,'2026-11-23T02:00:54.576+00:00');
INSERT INTO "moves" VALUES(2,36,1,1,10,'play:6S',0,'2026-11-23T02:00:54.576+00:00');
INSERT INTO "moves" VALUES(2,37,1,0,20,'play:3D',0,'2026-11-23T02:00:54.576+00:00');
INSERT INTO "moves" VALUES(2,38,1,2,30,'play:5S',0,'2026-11-23T02:00:54.577+00:00');
INSERT INTO "moves" VALUES(3,1,1,0,30,'bid:KH',0,'2026-11-23T02:00:54.579+00:00');
INSERT INTO "moves" VALUES(3,2,1,0,30,'play:7S',0,'2026-11-23T02:00:54.579+00:00');
INSERT INTO "moves" VALUES(3,3,1,1,NULL,'play:3S',1,'2026-11-23T02:00:54.579+00:00');
INSERT INTO "moves" VALUES(3,4,1,0,30,'play:5H',0,'2026-11-23T02:00:54.581+00:00');
INSERT INTO "moves" VALUES(3,5,1,1,NULL,'play:5D',1,'2026-11-23T02:00:54.581+00:00');
INSERT INTO "moves" VALUES(3,6,1,0,30,'play:AD',0,'2026-11-23T02:00:54.582+00:00');
INSERT INTO "moves" VALUES(3,7,1,1,NULL,'play:KC',1,'2026-11-23T02:00:54.583+00:00');
INSERT INTO "moves" VALUES(3,8,1,0,30,'play:4D',0,'2026-11-23T02:00:54.584+00:00');
INSERT INTO "moves" VALUES(3,9,1,1,NULL,'play:JH',1,'2026-11-23T02:00:54.584+00:00');
INSERT INTO "moves" VALUES(3,10,1,1,NULL,'play:4H',1,'2026-11-23T02:00:54.584+00:00');
INSERT INTO "moves" VALUES(3,11,1,0,30,'play:6C',0,'2026-11-23T02:00:54.586+00:00');
INSERT INTO "moves" VALUES(3,12,1,1,NULL,'play:6H',1,'2026-11-23T02:00:54.586+00:00');
INSERT INTO "moves" VALUES(3,13,1,0,30,'play:6D',0,'2026-11-23T02:00:54.588+00:00');
INSERT INTO "moves" VALUES(3,14,1,1,NULL,'play:AC',1,'2026-11-23T02:00:54.588+00:00');
INSERT INTO "moves" VALUES(3,15,1,0,30,'play:7H',0,'2026-11-23T02:00:54.589+00:00');
INSERT INTO "moves" VALUES(3,16,1,0,30,'play:JC',0,'2026-11-23T02:00:54.590+00:00');
INSERT INTO "moves" VALUES(3,17,1,1,NULL,'play:AH',1,'2026-11-23T02:00:54.590+00:00');
INSERT INTO "moves" VALUES(3,18,1,1,NULL,'play:JD',1,'2026-11-23T02:00:54.590+00:00');
INSERT INTO "moves" VALUES(3,19,1,0,30,'play:5C',0,'2026-11-23T02:00:54.591+00:00');
INSERT INTO "moves" VALUES(3,20,1,1,NULL,'play:3C',1,'2026-11-23T02:00:54.591+00:00');
INSERT INTO "moves" VALUES(3,21,1,0,30,'play:4S',0,'2026-11-23T02:00:54.592+00:00');
INSERT INTO "moves" VALUES(3,22,1,1,NULL,'play:4C',1,'2026-11-23T02:00:54.593+00:00');
INSERT INTO "moves" VALUES(3,23,1,0,30,'play:QS',0,'2026-11-23T02:00:54.594+00:00');
INSERT INTO "moves" VALUES(3,24,1,1,NULL,'play:QC',1,'2026-11-23T02:00:54.594+00:00');
INSERT INTO "moves" VALUES(3,25,1,0,30,'play:3D',0,'2026-11-23T02:00:54.596+00:00');
INSERT INTO "moves" VALUES(3,26,1,1,NULL,'play:KS',1,'2026-11-23T02:00:54.596+00:00');
INSERT INTO "moves" VALUES(3,27,1,0,30,'play:7C',0,'2026-11-23T02:00:54.604+00:00');
INSERT INTO "moves" VALUES(3,28,1,1,NULL,'play:AS',1,'2026-11-23T02:00:54.604+00:00');
INSERT INTO "moves" VALUES(3,29,1,0,30,'play:JS',0,'2026-11-23T02:00:54.606+00:00');
INSERT INTO "moves" VALUES(3,30,1,1,NULL,'play:QD',1,'2026-11-23T02:00:54.606+00:00');
INSERT INTO "moves" VALUES(3,31,1,0,30,'play:6S',0,'2026-11-23T02:00:54.607+00:00');
INSERT INTO "moves" VALUES(3,32,1,1,NULL,'play:7D',1,'2026-11-23T02:00:54.608+00:00');
INSERT INTO "moves" VALUES(3,33,1,0,30,'play:QH',0,'2026-11-23T02:00:54.609+00:00');
INSERT INTO "moves" VALUES(3,34,1,0,30,'play:5S',0,'2026-11-23T02:00:54.610+00:00');
INSERT INTO "moves" VALUES(3,35,1,1,NULL,'play:3H',1,'2026-11-23T02:00:54.610+00:00');
INSERT INTO "moves" VALUES(3,36,1,1,NULL,'play:KD',1,'2026-11-23T02:00:54.610+00:00');
INSERT INTO "moves" VALUES(3,37,1,0,30,'play:KH',0,'2026-11-23T02:00:54.611+00:00');
INSERT INTO "moves" VALUES(3,38,2,1,NULL,'bid:QC',1,'2026-11-23T02:00:54.611+00:00');
INSERT INTO "moves" VALUES(3,39,2,1,NULL,'play:QC',1,'2026-11-23T02:00:54.612+00:00');
INSERT INTO "moves" VALUES(3,40,2,0,30,'play:JC',0,'2026-11-23T02:00:54.612+00:00');
INSERT INTO "moves" VALUES(3,41,2,0,30,'play:KS',0,'2026-11-23T02:00:54.612+00:00');
INSERT INTO "moves" VALUES(3,42,2,1,NULL,'play:AD',1,'2026-11-23T02:00:54.612+00:00');
INSERT INTO "moves" VALUES(3,43,2,0,30,'play:KD',0,'2026-11-23T02:00:54.614+00:00');
INSERT INTO "moves" VALUES(3,44,2,1,NULL,'play:KH',1,'2026-11-23T02:00:54.614+00:00');
INSERT INTO "moves" VALUES(3,45,2,0,30,'play:6H',0,'2026-11-23T02:00:54.615+00:00');
INSERT INTO "moves" VALUES(3,46,2,1,NULL,'play:5D',1,'2026-11-23T02:00:54.616+00:00');
INSERT INTO "moves" VALUES(3,47,2,0,30,'play:5H',0,'2026-11-23T02:00:54.617+00:00');
INSERT INTO "moves" VALUES(3,48,2,1,NULL,'play:JS',1,'2026-11-23T02:00:54.617+00:00');
INSERT INTO "moves" VALUES(3,49,2,1,NULL,'play:KC',1,'2026-11-23T02:00:54.617+00:00');
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
INSERT INTO "player_totals" VALUES(1,'albastini',10,2,0,1,4,1,0,171);
INSERT INTO "player_totals" VALUES(1,'albastini',20,2,1,2,4,2,0,243);
INSERT INTO "player_totals" VALUES(1,'albastini',30,1,1,1,1,1,0,66);
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
INSERT INTO "schema_version" VALUES(1,'init','2026-11-23T02:00:54.499+00:00');
INSERT INTO "schema_version" VALUES(2,'player_totals','2026-11-23T02:00:54.501+00:00');
INSERT INTO "schema_version" VALUES(3,'guild_language_chosen','2026-11-23T02:00:54.501+00:00');
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
INSERT INTO "seats" VALUES(1,0,10,'Asha',NULL,0,0,0);
INSERT INTO "seats" VALUES(1,1,20,'Baraka',NULL,0,0,0);
INSERT INTO "seats" VALUES(1,2,NULL,'1','greedy',0,0,0);
INSERT INTO "seats" VALUES(1,3,NULL,'2','greedy',0,0,0);
INSERT INTO "seats" VALUES(2,0,20,'Baraka',NULL,0,0,0);
INSERT INTO "seats" VALUES(2,1,10,'Asha',NULL,0,0,0);
INSERT INTO "seats" VALUES(2,2,30,'Chausiku',NULL,0,0,0);
INSERT INTO "seats" VALUES(3,0,30,'Chausiku',NULL,0,0,0);
INSERT INTO "seats" VALUES(3,1,NULL,'1','random',0,0,0);
INSERT INTO "seats" VALUES(4,0,10,'Asha',NULL,0,0,0);
INSERT INTO "seats" VALUES(5,0,20,'Baraka',NULL,0,0,0);
ANALYZE "sqlite_master";
INSERT INTO "sqlite_stat1" VALUES('seats','seats_one_per_user','8 2 1');
INSERT INTO "sqlite_stat1" VALUES('seats','seats','11 3 1');
INSERT INTO "sqlite_stat1" VALUES('deals','deals','6 2 1');
INSERT INTO "sqlite_stat1" VALUES('moves','moves','201 67 1');
INSERT INTO "sqlite_stat1" VALUES('deal_results','deal_results','5 2 1');
CREATE TABLE user_preferences (
    user_id     INTEGER PRIMARY KEY,
    language    TEXT    CHECK (language IS NULL OR language IN ('en', 'sw')),
    updated_at  TEXT    NOT NULL
);
INSERT INTO "user_preferences" VALUES(20,'en','2026-11-23T02:00:54.620+00:00');
CREATE UNIQUE INDEX game_tables_one_active_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'running');
CREATE UNIQUE INDEX seats_one_per_user ON seats (table_id, user_id) WHERE user_id IS NOT NULL;
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
CREATE INDEX match_results_board ON match_results (
    guild_id, game, user_id, won, team_vp, deals_played, deals_won, deals_won_2vp, card_points
);
CREATE INDEX player_totals_rank
    ON player_totals (guild_id, game, matches_won DESC, vp DESC, user_id);
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
COMMIT;
