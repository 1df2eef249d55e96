-- Most rows the bot writes are short-lived: an outbox message lives until the platform has
-- it, a sent reference and a request's answer for three days, and every move writes its
-- game row again. PostgreSQL's defaults vacuum a table once a fifth of it is dead, which on
-- a table of a million finished games is 200,000 dead game versions (hundreds of MB) before
-- their space is reused. These settings have autovacuum take the dead rows back after a
-- fixed number instead, so the space a game's moves churn through is reused every minute or
-- so (autovacuum's round) and the files grow with the facts kept, not with the moves made.
ALTER TABLE games SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000);
ALTER TABLE answers SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE sent SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000);
ALTER TABLE challenges SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500);
