-- Commits go to the server in one flight (pipelined): BEGIN, every statement and COMMIT are
-- sent together, without waiting for each answer. A statement that must touch exactly one
-- row (a record written over the revision it was read at, a new request key) therefore
-- checks that itself and raises, which aborts the transaction so that the COMMIT behind it
-- rolls back. SQLSTATE JQ409 means "changed meanwhile". (The count is not called `found`:
-- that is PL/pgSQL's own variable.)
CREATE FUNCTION expect_rows(touched bigint, wanted bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    IF touched <> wanted THEN
        RAISE EXCEPTION 'a record changed meanwhile (% rows instead of %)', touched, wanted
            USING ERRCODE = 'JQ409';
    END IF;
    RETURN touched;
END
$$;

-- A failed delivery round sets these without rewriting the record (one statement, no read
-- first); they override the record's own fields of the same names.
ALTER TABLE outbox ADD COLUMN attempts integer NOT NULL DEFAULT 0;

-- Each process numbers its outbox messages from a block of ids it reserves now and then
-- (one round trip per block instead of one per message), so ids no longer tell the order
-- in which messages were queued. `seq` does: it is taken when the row is inserted, inside
-- the commit, and a lane is delivered in `seq` order. Rows already queued keep their order.
CREATE SEQUENCE outbox_order;
SELECT setval('outbox_order', greatest(
    (SELECT max(id) FROM outbox), (SELECT last_value FROM outbox_ids), 1));
ALTER TABLE outbox ADD COLUMN seq bigint;
UPDATE outbox SET seq = id;
ALTER TABLE outbox
    ALTER COLUMN seq SET DEFAULT nextval('outbox_order'),
    ALTER COLUMN seq SET NOT NULL;
DROP INDEX outbox_lane;
DROP INDEX outbox_platform_lane;
CREATE INDEX outbox_lane ON outbox (lane, seq);
CREATE INDEX outbox_platform_lane ON outbox (platform, lane, seq);
