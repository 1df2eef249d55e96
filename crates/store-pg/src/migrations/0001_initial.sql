-- The first schema: records as opaque codec blobs (`jieqi_service::store::codec`), with the
-- few columns the store looks things up by. Times are seconds since the Unix epoch, except
-- the outbox's `not_before` and `claimed_until`, which are milliseconds.

CREATE TABLE games (
    id text PRIMARY KEY,
    revision bigint NOT NULL,
    -- When the player to move loses on time; NULL once the game is over.
    deadline bigint,
    record bytea NOT NULL
);
CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;

CREATE TABLE challenges (
    id text PRIMARY KEY,
    revision bigint NOT NULL,
    expires_at bigint NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX challenges_expires_at ON challenges (expires_at);

CREATE TABLE chats (
    id text PRIMARY KEY,
    revision bigint NOT NULL,
    record bytea NOT NULL
);

CREATE TABLE players (
    id text PRIMARY KEY,
    revision bigint NOT NULL,
    record bytea NOT NULL
);

-- Request keys and their answers: a repeated request gets the same answer.
CREATE TABLE answers (
    key text PRIMARY KEY,
    at bigint NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX answers_at ON answers (at);

-- Undelivered messages. A lane is one chat or one person's private messages; a delivery
-- loop claims the oldest message of a lane until `claimed_until`.
CREATE SEQUENCE outbox_ids;
CREATE TABLE outbox (
    id bigint PRIMARY KEY,
    platform text,
    lane text NOT NULL,
    not_before bigint NOT NULL DEFAULT 0,
    claimed_by text,
    claimed_until bigint,
    record bytea NOT NULL
);
CREATE INDEX outbox_lane ON outbox (lane, id);
CREATE INDEX outbox_platform_lane ON outbox (platform, lane, id);

-- Delivered messages' platform references, for later edits.
CREATE TABLE sent (
    id bigint PRIMARY KEY,
    at bigint NOT NULL,
    platform_ref text NOT NULL
);
CREATE INDEX sent_at ON sent (at);
