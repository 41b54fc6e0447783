-- Price and id join the make/model index's keys (they were only covered): within one model the
-- entries are then in page order, so a search by make and model reads a page from each model's
-- first entries instead of sorting every entry of the model words' range (see modelMerge in
-- src/search/postgres-engine.ts). The same columns are still covered for the statistics.
DROP INDEX IF EXISTS stock_items_make_model_idx;
CREATE INDEX stock_items_make_model_idx ON stock_items (make_norm, model_norm text_pattern_ops, price, id)
  INCLUDE (vendor_id, condition, location_country_code, is_oem, is_aftermarket, part_id);
