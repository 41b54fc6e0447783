-- migrate: outside a transaction
-- Price and id join the make/model index's keys (they were only covered): within one model the
-- entries are then in page order, so a search by make and model reads a page from each model's
-- first entries instead of sorting every entry of the model words' range (see modelMerge in
-- src/search/postgres-engine.ts). The same columns are still covered for the statistics.
-- Built concurrently, beside the old index, so searches go on during the build (a million items:
-- seconds; a plain CREATE INDEX would hold them all that time); every step can run again.
DROP INDEX CONCURRENTLY IF EXISTS stock_items_make_model_price_idx;
CREATE INDEX CONCURRENTLY stock_items_make_model_price_idx
  ON stock_items (make_norm, model_norm text_pattern_ops, price, id)
  INCLUDE (vendor_id, condition, location_country_code, is_oem, is_aftermarket, part_id);
DROP INDEX CONCURRENTLY IF EXISTS stock_items_make_model_idx;
ALTER INDEX stock_items_make_model_price_idx RENAME TO stock_items_make_model_idx;
