-- Whether a server explicitly chose its language. Without it "en" meant both "chose English" and
-- "never chose", so with ALBASTINI_LANGUAGE=sw a server that picked English lost it on restart.
-- Existing rows: a stored 'sw' was certainly chosen; a stored 'en' may have been, and keeping
-- English for those servers is the safe reading.
ALTER TABLE guild_settings ADD COLUMN language_chosen INTEGER NOT NULL DEFAULT 0
    CHECK (language_chosen IN (0, 1));
UPDATE guild_settings SET language_chosen = 1;
