-- Tournaments run in a chat (`TournamentRecord`, in its own byte form: `jieqi_store::tournament`).
-- Revision checked like games, so a round is paired by one process. Looked up by id, by chat
-- (oldest first), and the ones not over (a player takes part in one at a time).
CREATE TABLE tournaments (
    id text PRIMARY KEY,
    revision bigint NOT NULL,
    chat text NOT NULL,
    created_at bigint NOT NULL,
    is_over boolean NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX tournaments_chat ON tournaments (chat, created_at, id);
CREATE INDEX tournaments_not_over ON tournaments (id) WHERE NOT is_over;
