-- Charges of one account and API key that arrive together are written together (sql/0022). Until
-- now each charge of a batch ran the whole of charge_search(): two row locks, two updates and two
-- inserts per charge, with the account's row locked (and every search of the account waiting) all
-- the while. A batch now locks the key and the account once, decides every charge in memory in
-- order, exactly as one charge after the other would (balance and both daily limits, each charge's
-- own UTC day), then writes the two rows once and one history row and one ledger row per charge
-- taken. Each charge still gets its own answer; a refused one does not stop the ones after it.
--
-- API processes keep a credential they have looked up for a few seconds (CREDENTIAL_CACHE_SECONDS)
-- and forget it when told it changed. Money must not depend on that message arriving: a batch
-- refuses every charge of an API key revoked since it was looked up ('revoked_key'; the API answers
-- 401). The key's row is locked here anyway, so the check costs nothing.
CREATE OR REPLACE FUNCTION charge_searches(p_account bigint, p_key bigint, p_charges jsonb)
RETURNS TABLE (status text, credits integer, search_id bigint, daily_limit integer, spent integer)
LANGUAGE plpgsql AS $$
DECLARE
  c jsonb;
  c_cost integer; c_day date;
  k_limit integer; k_day date; k_spent integer;
  a_credits integer; a_limit integer; a_day date; a_spent integer;
  k_today integer; a_today integer;
  last_now timestamptz;
  taken jsonb[] := '{}';
  results text[] := '{}';
  result_credits integer[] := '{}';
  result_limits integer[] := '{}';
  result_spent integer[] := '{}';
  new_search bigint;
  i integer;
  t integer := 0;
BEGIN
  IF p_key IS NOT NULL THEN
    SELECT k.daily_credit_limit, k.spent_day, k.spent_today INTO k_limit, k_day, k_spent
      FROM api_keys k WHERE k.id = p_key AND k.revoked_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'revoked_key'::text, NULL::integer, NULL::bigint, NULL::integer, NULL::integer
        FROM jsonb_array_elements(p_charges);
      RETURN;
    END IF;
  END IF;
  SELECT a.credits, a.daily_credit_limit, a.spent_day, a.spent_today INTO a_credits, a_limit, a_day, a_spent
    FROM accounts a WHERE a.id = p_account FOR UPDATE;

  -- Decide each charge in order, on the rows' state after the charges taken before it.
  FOR c IN SELECT e.value FROM jsonb_array_elements(p_charges) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
    c_cost := (c->>'cost')::integer;
    c_day := (c->>'day')::date;
    k_today := CASE WHEN k_day = c_day THEN k_spent ELSE 0 END;
    a_today := CASE WHEN a_day = c_day THEN a_spent ELSE 0 END;
    IF p_key IS NOT NULL AND k_limit IS NOT NULL AND k_today + c_cost > k_limit THEN
      results := results || 'key_limit'::text; result_credits := result_credits || NULL::integer;
      result_limits := result_limits || k_limit; result_spent := result_spent || k_today;
    ELSIF a_credits < c_cost THEN
      results := results || 'insufficient'::text; result_credits := result_credits || a_credits;
      result_limits := result_limits || a_limit; result_spent := result_spent || a_today;
    ELSIF a_limit IS NOT NULL AND a_today + c_cost > a_limit THEN
      results := results || 'account_limit'::text; result_credits := result_credits || a_credits;
      result_limits := result_limits || a_limit; result_spent := result_spent || a_today;
    ELSE
      a_credits := a_credits - c_cost;
      a_day := c_day; a_spent := a_today + c_cost;
      k_day := c_day; k_spent := k_today + c_cost;
      last_now := (c->>'now')::timestamptz;
      taken := taken || jsonb_set(c, '{balance_after}', to_jsonb(a_credits));
      results := results || 'ok'::text; result_credits := result_credits || a_credits;
      result_limits := result_limits || a_limit; result_spent := result_spent || a_spent;
    END IF;
  END LOOP;

  IF array_length(taken, 1) > 0 THEN
    UPDATE accounts SET credits = a_credits, spent_day = a_day, spent_today = a_spent, updated_at = last_now
     WHERE id = p_account;
    IF p_key IS NOT NULL THEN
      UPDATE api_keys SET spent_day = k_day, spent_today = k_spent WHERE id = p_key;
    END IF;
  END IF;

  FOR i IN 1 .. coalesce(array_length(results, 1), 0) LOOP
    new_search := NULL;
    IF results[i] = 'ok' THEN
      t := t + 1;
      c := taken[t];
      INSERT INTO searches (account_id, api_key_id, kind, query, query_summary, total, page, per_page,
                            credits_spent, token_status, created_at)
      VALUES (p_account, p_key, c->>'kind', c->'query', c->>'summary', (c->>'total')::integer,
              (c->>'page')::integer, (c->>'per_page')::integer, (c->>'cost')::integer, c->>'token_status',
              (c->>'now')::timestamptz)
      RETURNING id INTO new_search;
      INSERT INTO credit_ledger (account_id, api_key_id, kind, delta, balance_after, search_id, created_at)
      VALUES (p_account, p_key, c->>'kind', -(c->>'cost')::integer, (c->>'balance_after')::integer, new_search,
              (c->>'now')::timestamptz);
    END IF;
    RETURN QUERY SELECT results[i], result_credits[i], new_search, result_limits[i], result_spent[i];
  END LOOP;
END $$;

-- Superseded by the batch above, which no longer calls it.
DROP FUNCTION IF EXISTS charge_search(bigint, bigint, integer, date, timestamptz, text, jsonb, text, integer,
  integer, integer, text);
