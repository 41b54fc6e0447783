-- stock_items_vendor_idx (vendor_id) duplicates the leading column of stock_items_vendor_sku_idx
-- (vendor_id, sku), which serves every lookup by seller as well (a seller's items, the feeds' plan
-- and removals, the cascade from vendors). One index fewer to maintain on every write: a seller's
-- first full feed, data:generate, every price change.
DROP INDEX IF EXISTS stock_items_vendor_idx;
