-- 0008: a server may have its tables played in threads of their own (/albastini settings
-- threads:True); off for every server until it says so.
ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0 CHECK (threads IN (0, 1));
