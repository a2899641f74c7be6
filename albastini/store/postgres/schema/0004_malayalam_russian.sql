-- 0004 (the SQLite store's 0009): Malayalam ('ml') and Russian ('ru') join English and Kiswahili
-- wherever a language is stored. The CHECKs keep the names PostgreSQL gave them in 0001.
ALTER TABLE game_tables DROP CONSTRAINT game_tables_language_check;
ALTER TABLE game_tables ADD CONSTRAINT game_tables_language_check
    CHECK (language IN ('en', 'sw', 'ml', 'ru'));
ALTER TABLE guild_settings DROP CONSTRAINT guild_settings_language_check;
ALTER TABLE guild_settings ADD CONSTRAINT guild_settings_language_check
    CHECK (language IN ('en', 'sw', 'ml', 'ru'));
ALTER TABLE user_preferences DROP CONSTRAINT user_preferences_language_check;
ALTER TABLE user_preferences ADD CONSTRAINT user_preferences_language_check
    CHECK (language IS NULL OR language IN ('en', 'sw', 'ml', 'ru'));
