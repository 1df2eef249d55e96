-- The review queue (`/review`): reviews asked for and not yet posted, kept here so that a
-- process that stops loses none of them (the requester was told their place in the queue).
-- One row per game and chat, written in the transaction that answers the request and deleted
-- in the one that posts the review; `queued` orders the queue. `record` is the request's
-- codec blob.
CREATE TABLE review_requests (
    game_id text NOT NULL,
    chat text NOT NULL,
    queued bigint GENERATED ALWAYS AS IDENTITY,
    record bytea NOT NULL,
    PRIMARY KEY (game_id, chat)
);
CREATE INDEX review_requests_queued ON review_requests (queued);
