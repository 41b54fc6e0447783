-- Charges of one account and API key that arrive together are written together. Every charge locks
-- the account's row until its transaction commits, so concurrent searches of one busy account
-- queue on that row one commit at a time. charge_searches() applies a batch of charges in order,
-- each exactly as charge_search() does (balance and both daily limits checked after the charges
-- before it), in one transaction: one lock wait and one commit for the whole batch. Each charge
-- gets its own answer; a refused one does not stop the ones after it.
CREATE OR REPLACE FUNCTION charge_searches(p_account bigint, p_key bigint, p_charges jsonb)
RETURNS TABLE (status text, credits integer, search_id bigint, daily_limit integer, spent integer)
LANGUAGE plpgsql AS $$
DECLARE
  c jsonb;
BEGIN
  FOR c IN SELECT e.value FROM jsonb_array_elements(p_charges) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
    RETURN QUERY SELECT r.status, r.credits, r.search_id, r.daily_limit, r.spent
      FROM charge_search(p_account, p_key, (c->>'cost')::integer, (c->>'day')::date, (c->>'now')::timestamptz,
                         c->>'kind', c->'query', c->>'summary', (c->>'total')::integer, (c->>'page')::integer,
                         (c->>'per_page')::integer, c->>'token_status') r;
  END LOOP;
END $$;

-- Free searches (no results, or a page fetched with a valid token) lock nothing, but each still
-- writes its history row; under load the API process writes the rows that arrive together in one
-- call: one round trip and one commit. Answers, per record in order, its id and the balance.
CREATE OR REPLACE FUNCTION record_free_searches(p_records jsonb)
RETURNS TABLE (search_id bigint, credits integer)
LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  new_search bigint;
BEGIN
  FOR r IN SELECT e.value FROM jsonb_array_elements(p_records) WITH ORDINALITY AS e(value, n) ORDER BY e.n LOOP
    INSERT INTO searches (account_id, api_key_id, kind, query, query_summary, total, page, per_page,
                          credits_spent, token_status, created_at)
    VALUES ((r->>'account_id')::bigint, (r->>'api_key_id')::bigint, r->>'kind', r->'query', r->>'summary',
            (r->>'total')::integer, (r->>'page')::integer, (r->>'per_page')::integer, 0, r->>'token_status',
            (r->>'now')::timestamptz)
    RETURNING id INTO new_search;
    RETURN QUERY SELECT new_search, a.credits FROM accounts a WHERE a.id = (r->>'account_id')::bigint;
  END LOOP;
END $$;
