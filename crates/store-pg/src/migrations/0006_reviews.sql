-- Reviews of finished games (`/review`): one row per game. A process about to compute a
-- review claims the row (`claimed_by`, `claimed_until` in milliseconds since the epoch), so
-- that of several processes only one computes it; another may take over a lapsed claim.
-- `record` (the review's codec blob) is written once, when the review is done, in the same
-- transaction as the posts that show it.
CREATE TABLE reviews (
    game_id text PRIMARY KEY,
    claimed_by text,
    claimed_until bigint,
    record bytea
);
