-- Every finished game keeps the verdict it was announced with (record codec schema 5: the
-- verdict, the rules revision, secret-captures). The game rows themselves are rewritten by
-- the binary right after this file, in the same transaction (`migrate::rewrite_old_games`):
-- an older finished game's verdict is judged once, by replaying it, which SQL cannot do.
-- Rows are found by their record's first byte, the codec schema it was written by.
CREATE INDEX games_old_records ON games (id) WHERE get_byte(record, 0) < 5;
