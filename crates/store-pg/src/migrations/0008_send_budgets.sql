-- Send budgets (the service's `store/pace.rs`): per budget (a chat's, the bot's), the posts
-- it counted within its sliding window, or for a rate the one time its bucket is full again,
-- as epoch milliseconds by this server's clock, so that every process posting to a chat
-- spends from the same budget by one clock.
CREATE TABLE send_budgets (
    key text PRIMARY KEY,
    posts bigint[] NOT NULL DEFAULT '{}'
);

-- Spends one post now from every budget named, or from none. Budget i is a window (every[i]
-- = 0: at most most[i] posts in any within[i] milliseconds) or a rate (a burst of most[i],
-- then one post every every[i] milliseconds); either keeps keep_free[i] more free. Returns 0
-- if spent, else the milliseconds until every budget has the room. The rows are locked in
-- key order, so two processes spending from overlapping budgets wait for each other and
-- never deadlock; the check and the spend are one transaction, so together they never
-- spend past a limit.
CREATE FUNCTION jieqi_spend(
    keys text[], most integer[], within bigint[], every bigint[], keep_free integer[]
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    now_ms bigint := (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    n integer := coalesce(array_length(keys, 1), 0);
    kept bigint[];
    held integer;
    room integer;
    full_at bigint;
    wait bigint := 0;
BEGIN
    INSERT INTO send_budgets (key)
        SELECT k FROM unnest(keys) k ORDER BY k ON CONFLICT (key) DO NOTHING;
    PERFORM 1 FROM send_budgets WHERE key = ANY (keys) ORDER BY key FOR UPDATE;
    FOR i IN 1 .. n LOOP
        room := most[i] - keep_free[i];
        IF every[i] > 0 THEN
            SELECT coalesce(posts[1], 0) INTO full_at FROM send_budgets WHERE key = keys[i];
            IF room <= 0 THEN
                wait := greatest(wait, every[i]);
            ELSE
                wait := greatest(wait, full_at - every[i] * (room - 1) - now_ms);
            END IF;
            CONTINUE;
        END IF;
        SELECT coalesce(array_agg(p ORDER BY p), '{}') INTO kept
            FROM send_budgets b, unnest(b.posts) p
            WHERE b.key = keys[i] AND p > now_ms - within[i];
        held := coalesce(array_length(kept, 1), 0);
        IF room <= 0 THEN
            wait := greatest(wait, within[i], 1);
        ELSIF held >= room THEN
            -- Room for one more once all but room - 1 of the posts have left the window.
            wait := greatest(wait, kept[held - room + 1] + within[i] - now_ms, 1);
        END IF;
    END LOOP;
    IF wait > 0 THEN
        RETURN wait;
    END IF;
    FOR i IN 1 .. n LOOP
        IF every[i] > 0 THEN
            UPDATE send_budgets
                SET posts = ARRAY[greatest(coalesce(posts[1], 0), now_ms) + every[i]]
                WHERE key = keys[i];
        ELSE
            UPDATE send_budgets
                SET posts = array(
                    SELECT p FROM unnest(posts) p WHERE p > now_ms - within[i] ORDER BY p
                ) || now_ms
                WHERE key = keys[i];
        END IF;
    END LOOP;
    RETURN 0;
END
$$;
