-- The seller's stock fingerprint (sql/0035) in two parts, so that the end of a full feed's apply
-- (src/stock/feed-repeat.ts), which checks the stock and sums the fingerprint in one pass over the
-- seller's items, uses the same definition as stock_fingerprint instead of a copy of it.

-- An item's share of the sum: a 64-bit hash of its id and version.
CREATE FUNCTION stock_item_fingerprint(p_id bigint, p_version bigint) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT hashtextextended(p_id::text || ':' || p_version::text, 0)::numeric
$$;

-- The fingerprint from the seller's item count, the sum of their shares (null: none) and country.
CREATE FUNCTION stock_fingerprint_of(p_items bigint, p_sum numeric, p_country text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT concat_ws(':', p_items, coalesce(p_sum, 0), p_country)
$$;

CREATE OR REPLACE FUNCTION stock_fingerprint(p_vendor bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT stock_fingerprint_of(count(i.id), sum(stock_item_fingerprint(i.id, i.version)),
                              (SELECT country_code FROM vendors WHERE id = p_vendor))
  FROM stock_items i WHERE i.vendor_id = p_vendor
$$;
