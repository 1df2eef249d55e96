-- An open tournament's start time (`TournamentRecord::due_at`), a deadline like a game's:
-- the tick of whichever process finds it due starts the event, the revision check letting
-- one of them commit. NULL once it started, or for a manual start only.
ALTER TABLE tournaments ADD COLUMN starts_at bigint;
CREATE INDEX tournaments_starts_at ON tournaments (starts_at) WHERE starts_at IS NOT NULL;
