-- 0009: Malayalam ('ml', Twenty-Eight's home language) and Russian ('ru', Ass's) join English and
-- Kiswahili wherever a language is stored: a table's, a server's, a person's preference.
-- Only the three CHECKs change, and they only widen (every stored row already passes the new
-- ones), so SQLite's own procedure for a looser CHECK applies: the tables' text is edited in the
-- schema rather than each table rebuilt (game_tables is the parent of every other table's
-- foreign key, and a rebuild of a parent is refused while foreign keys are on, as they are
-- here). The empty table made and dropped afterwards changes the schema's version, so every
-- other open connection reads the new CHECKs before its next statement.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'language IN (''en'', ''sw'')', 'language IN (''en'', ''sw'', ''ml'', ''ru'')')
WHERE type = 'table' AND name IN ('game_tables', 'guild_settings', 'user_preferences');
PRAGMA writable_schema = RESET;
CREATE TABLE schema_bump_0009 (x INTEGER);
DROP TABLE schema_bump_0009;
