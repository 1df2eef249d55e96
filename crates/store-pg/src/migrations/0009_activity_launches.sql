-- Discord Activity instances launched from a game's "Play in Discord" button: the game each
-- shows (`LaunchRecord`), for every process serving the Activity. A later launch into the
-- same instance replaces its row; rows are pruned with old request answers.
CREATE TABLE activity_launches (
    instance text PRIMARY KEY,
    at bigint NOT NULL,
    record bytea NOT NULL
);
CREATE INDEX activity_launches_at ON activity_launches (at);
