-- 0003 (the SQLite store's 0008): a server may have its tables played in threads of their own
-- (/albastini settings threads:True); off for every server until it says so.
ALTER TABLE guild_settings ADD COLUMN threads BOOLEAN NOT NULL DEFAULT FALSE;
