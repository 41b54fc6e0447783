-- Searches of every account recorded together: one call, one transaction, one WAL flush.
--
-- An API process wrote each account's (and credential's) searches in batches of their own: one
-- charge_searches() call and one commit per account with searches in flight, and the free searches
-- of an account in another. Under many integrators at once that is one WAL flush per account per
-- batch, each request waiting for its own. record_searches() takes what arrived together from every
-- account, charged and free, and writes it in one transaction: the charges of each account and
-- credential through charge_searches() (each still decided as if it came alone, after the ones before
-- it), then every free search's history row. It answers one row per record, in order, as
-- charge_searches() does; a free search answers 'ok' with the balance, or the refusal a charge would
-- give when its account or key is gone.
--
-- Lock order: charges lock an account's row, then its key's. Lanes are taken in ascending order of
-- account, then key, so two batches (of two API processes) that share accounts take their locks in
-- the same order and never wait for each other in a circle; a lone charge_searches() (a request with
-- an Idempotency-Key) and every other writer of an account lock one account.
--
-- p_lock_timeout (a lock_timeout value, e.g. '500ms'; NULL: wait as the session does): how long the
-- batch waits for a row another transaction holds (an account being deleted, a long operator's
-- transaction) before it fails with lock_not_available and writes nothing; the API then writes that
-- batch's searches account by account, so one account's wait never holds up the others' searches.
CREATE FUNCTION record_searches(p_records jsonb, p_lock_timeout text DEFAULT NULL)
RETURNS TABLE (status text, credits integer, search_id bigint, daily_limit integer, spent integer)
LANGUAGE plpgsql AS $$
DECLARE
  size integer := jsonb_array_length(p_records);
  lane record;
  answer record;
  r_status text[] := array_fill(NULL::text, ARRAY[size]);
  r_credits integer[] := array_fill(NULL::integer, ARRAY[size]);
  r_search bigint[] := array_fill(NULL::bigint, ARRAY[size]);
  r_limit integer[] := array_fill(NULL::integer, ARRAY[size]);
  r_spent integer[] := array_fill(NULL::integer, ARRAY[size]);
BEGIN
  IF p_lock_timeout IS NOT NULL THEN
    PERFORM set_config('lock_timeout', p_lock_timeout, true);
  END IF;
  FOR lane IN
    SELECT (e.value->>'account_id')::bigint AS account_id, (e.value->>'api_key_id')::bigint AS key_id,
           (e.value->>'session_id')::bigint AS session_id,
           array_agg(e.n ORDER BY e.n) AS positions, jsonb_agg(e.value ORDER BY e.n) AS charges
      FROM jsonb_array_elements(p_records) WITH ORDINALITY AS e(value, n)
     WHERE (e.value->>'cost')::integer > 0
     GROUP BY 1, 2, 3
     ORDER BY 1, 2 NULLS FIRST, 3 NULLS FIRST
  LOOP
    FOR answer IN
      SELECT * FROM charge_searches(lane.account_id, lane.key_id, lane.session_id, lane.charges)
        WITH ORDINALITY AS c(status, credits, search_id, daily_limit, spent, n)
    LOOP
      r_status[lane.positions[answer.n]] := answer.status;
      r_credits[lane.positions[answer.n]] := answer.credits;
      r_search[lane.positions[answer.n]] := answer.search_id;
      r_limit[lane.positions[answer.n]] := answer.daily_limit;
      r_spent[lane.positions[answer.n]] := answer.spent;
    END LOOP;
  END LOOP;

  -- Free searches: their history rows in one statement, each with its id drawn first so that it is
  -- known whose it is. A record whose account or key no longer exists is refused, not written (its
  -- foreign key would fail the whole batch). The account's row is share-locked as its foreign key
  -- would lock it, first: an account being deleted is waited for and then seen gone, never written
  -- to after it is.
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_records) AS e(value) WHERE (e.value->>'cost')::integer = 0) THEN
    FOR answer IN
      WITH free_searches AS MATERIALIZED (
        SELECT e.n, e.value AS r,
               (SELECT a.credits FROM accounts a WHERE a.id = (e.value->>'account_id')::bigint
                  FOR KEY SHARE) AS credits,
               (e.value->>'api_key_id') IS NOT NULL AND k.id IS NULL AS key_gone
          FROM jsonb_array_elements(p_records) WITH ORDINALITY AS e(value, n)
          LEFT JOIN api_keys k ON k.id = (e.value->>'api_key_id')::bigint
         WHERE (e.value->>'cost')::integer = 0
      ), kept AS MATERIALIZED (
        SELECT f.n, f.r, f.credits, nextval(pg_get_serial_sequence('searches', 'id')) AS sid
          FROM free_searches f WHERE f.credits IS NOT NULL AND NOT f.key_gone
      ), written AS (
        INSERT INTO searches (id, account_id, api_key_id, kind, query, query_summary, total, page, per_page,
                              credits_spent, token_status, created_at)
        OVERRIDING SYSTEM VALUE
        SELECT sid, (r->>'account_id')::bigint, (r->>'api_key_id')::bigint, r->>'kind', r->'query', r->>'summary',
               (r->>'total')::integer, (r->>'page')::integer, (r->>'per_page')::integer, 0, r->>'token_status',
               (r->>'now')::timestamptz
          FROM kept
      )
      SELECT f.n, k.credits, k.sid,
             CASE WHEN k.sid IS NOT NULL THEN 'ok'
                  WHEN f.r->>'api_key_id' IS NULL THEN 'revoked_session'
                  ELSE 'revoked_key' END AS status
        FROM free_searches f LEFT JOIN kept k ON k.n = f.n
    LOOP
      r_status[answer.n] := answer.status;
      r_credits[answer.n] := answer.credits;
      r_search[answer.n] := answer.sid;
    END LOOP;
  END IF;

  RETURN QUERY SELECT u.s, u.c, u.i, u.l, u.p
    FROM unnest(r_status, r_credits, r_search, r_limit, r_spent) WITH ORDINALITY AS u(s, c, i, l, p, n)
    ORDER BY u.n;
END $$;
