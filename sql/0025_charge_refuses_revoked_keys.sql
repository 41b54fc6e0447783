-- API processes keep a credential they have looked up for a few seconds (CREDENTIAL_CACHE_SECONDS)
-- and forget it when told it changed. Money must not depend on that message arriving: a charge
-- refuses an API key revoked since it was looked up ('revoked_key'; the API answers 401). The key's
-- row is locked here anyway, so the check costs nothing. Otherwise unchanged from 0006.
CREATE OR REPLACE FUNCTION charge_search(
  p_account bigint, p_key bigint, p_cost integer, p_day date, p_now timestamptz,
  p_kind text, p_query jsonb, p_summary text, p_total integer, p_page integer, p_per_page integer,
  p_token_status text
) RETURNS TABLE (status text, credits integer, search_id bigint, daily_limit integer, spent integer)
LANGUAGE plpgsql AS $$
DECLARE
  k_limit integer; k_spent integer;
  a_credits integer; a_limit integer; a_spent integer;
  new_search bigint;
BEGIN
  IF p_key IS NOT NULL THEN
    SELECT k.daily_credit_limit, CASE WHEN k.spent_day = p_day THEN k.spent_today ELSE 0 END
      INTO k_limit, k_spent FROM api_keys k WHERE k.id = p_key AND k.revoked_at IS NULL FOR UPDATE;
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'revoked_key'::text, NULL::integer, NULL::bigint, NULL::integer, NULL::integer;
      RETURN;
    END IF;
    IF k_limit IS NOT NULL AND k_spent + p_cost > k_limit THEN
      RETURN QUERY SELECT 'key_limit'::text, NULL::integer, NULL::bigint, k_limit, k_spent;
      RETURN;
    END IF;
  END IF;
  SELECT a.credits, a.daily_credit_limit, CASE WHEN a.spent_day = p_day THEN a.spent_today ELSE 0 END
    INTO a_credits, a_limit, a_spent FROM accounts a WHERE a.id = p_account FOR UPDATE;
  IF a_credits < p_cost THEN
    RETURN QUERY SELECT 'insufficient'::text, a_credits, NULL::bigint, a_limit, a_spent;
    RETURN;
  END IF;
  IF a_limit IS NOT NULL AND a_spent + p_cost > a_limit THEN
    RETURN QUERY SELECT 'account_limit'::text, a_credits, NULL::bigint, a_limit, a_spent;
    RETURN;
  END IF;
  UPDATE accounts SET credits = a_credits - p_cost, spent_day = p_day, spent_today = a_spent + p_cost, updated_at = p_now
   WHERE id = p_account;
  IF p_key IS NOT NULL THEN
    UPDATE api_keys SET spent_day = p_day, spent_today = k_spent + p_cost WHERE id = p_key;
  END IF;
  INSERT INTO searches (account_id, api_key_id, kind, query, query_summary, total, page, per_page,
                        credits_spent, token_status, created_at)
  VALUES (p_account, p_key, p_kind, p_query, p_summary, p_total, p_page, p_per_page, p_cost, p_token_status, p_now)
  RETURNING id INTO new_search;
  INSERT INTO credit_ledger (account_id, api_key_id, kind, delta, balance_after, search_id, created_at)
  VALUES (p_account, p_key, p_kind, -p_cost, a_credits - p_cost, new_search, p_now);
  RETURN QUERY SELECT 'ok'::text, a_credits - p_cost, new_search, a_limit, a_spent + p_cost;
END $$;
