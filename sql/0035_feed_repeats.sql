-- A full feed byte for byte the seller's last one applied, with the seller's stock untouched since,
-- changes nothing: the feed worker answers it from that feed's outcome instead of reading a million
-- lines again to find them all unchanged (src/stock/feed-repeat.ts).
ALTER TABLE stock_feeds
  -- SHA-256 of the body as received (compressed, if it was)
  ADD COLUMN body_sha256 bytea,
  -- the seller's stock exactly as an applied full feed left it (stockFingerprint); null when a
  -- write of another kind landed while it was applied, or for any other feed
  ADD COLUMN stock_after text;

-- The seller's stock as a fingerprint: its items, a sum of a 64-bit hash of each item's id and
-- version, and its country. Every write gives an item a new version from one sequence, so any
-- write since (a change, a new item, a removal) changes the sum — whenever it commits, even one
-- whose version was drawn before others; the country is what a line without one takes. STABLE: it
-- reads with the snapshot of the statement that calls it.
CREATE FUNCTION stock_fingerprint(p_vendor bigint) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws(':',
    count(i.id),
    coalesce(sum(hashtextextended(i.id::text || ':' || i.version::text, 0)::numeric), 0),
    (SELECT country_code FROM vendors WHERE id = p_vendor))
  FROM stock_items i WHERE i.vendor_id = p_vendor
$$;
