-- Account plans: the limits a provider sets for an account, which its owner cannot raise.
--
-- A plan holds requests per minute and per hour (counted for the whole account: every API key and
-- Bearer session together, besides each key's own limits) and daily credits. A NULL column is the
-- configured default (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_PER_HOUR, PLAN_DAILY_CREDITS); an account
-- without a row has the default plan. Only an operator changes a plan (npm run account:plan); an
-- owner may set a key's limits, and the account's daily credit limit, only within it.
CREATE TABLE account_plans (
  account_id            bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  rate_limit_per_hour   integer CHECK (rate_limit_per_hour > 0),
  daily_credits         integer CHECK (daily_credits > 0),
  updated_at            timestamptz NOT NULL DEFAULT now()
);

-- The plan's daily credits are spent under the account's row lock like its own daily limit: the
-- charge takes the lower of the two. The API passes the plan's value (the account's row, else the
-- configured default) with each batch, as "plan_daily_credits"; a batch without it (a process of
-- the previous release) is bound by the account's own limit only, as before. The rest of the
-- function is sql/0026's.
CREATE OR REPLACE FUNCTION charge_searches(p_account bigint, p_key bigint, p_session bigint, p_charges jsonb)
RETURNS TABLE (status text, credits integer, search_id bigint, daily_limit integer, spent integer)
LANGUAGE plpgsql AS $$
DECLARE
  c jsonb;
  c_cost integer; c_day date;
  k_limit integer; k_day date; k_spent integer;
  a_credits integer; a_limit integer; a_day date; a_spent integer;
  k_today integer; a_today integer;
  last_now timestamptz;
  refused text;
  taken jsonb[] := '{}';
  results text[] := '{}';
  result_credits integer[] := '{}';
  result_limits integer[] := '{}';
  result_spent integer[] := '{}';
  new_search bigint;
  i integer;
  t integer := 0;
BEGIN
  SELECT a.credits, a.daily_credit_limit, a.spent_day, a.spent_today INTO a_credits, a_limit, a_day, a_spent
    FROM accounts a WHERE a.id = p_account FOR NO KEY UPDATE;
  -- the plan's daily credits bound the account's own limit (least() ignores a NULL: no limit)
  a_limit := least(a_limit, (p_charges->0->>'plan_daily_credits')::integer);
  IF NOT FOUND THEN
    refused := CASE WHEN p_key IS NULL THEN 'revoked_session' ELSE 'revoked_key' END;
  ELSIF p_key IS NOT NULL THEN
    SELECT k.daily_credit_limit, k.spent_day, k.spent_today INTO k_limit, k_day, k_spent
      FROM api_keys k WHERE k.id = p_key AND k.account_id = p_account AND k.revoked_at IS NULL
      FOR NO KEY UPDATE;
    IF NOT FOUND THEN refused := 'revoked_key'; END IF;
  ELSIF p_session IS NOT NULL THEN
    -- read, not locked: a logout committed before this statement is seen, one after it is a
    -- logout after the charge
    PERFORM 1 FROM sessions s
      WHERE s.id = p_session AND s.account_id = p_account AND s.revoked_at IS NULL
        AND s.expires_at > (p_charges->0->>'now')::timestamptz;
    IF NOT FOUND THEN refused := 'revoked_session'; END IF;
  END IF;
  IF refused IS NOT NULL THEN
    RETURN QUERY SELECT refused, NULL::integer, NULL::bigint, NULL::integer, NULL::integer
      FROM jsonb_array_elements(p_charges);
    RETURN;
  END IF;

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
