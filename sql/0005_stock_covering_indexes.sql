-- Covering indexes: the price statistics of reference, vehicle and part searches aggregate
-- (price, vendor, condition, country) straight from the index, without visiting the table.
DROP INDEX IF EXISTS stock_items_make_model_idx;
CREATE INDEX stock_items_make_model_idx ON stock_items (make_norm, model_norm text_pattern_ops)
  INCLUDE (price, vendor_id, condition, location_country_code, is_oem, is_aftermarket, part_id);
DROP INDEX IF EXISTS stock_items_part_idx;
CREATE INDEX stock_items_part_idx ON stock_items (part_id, price, id)
  INCLUDE (vendor_id, condition, location_country_code, is_oem, is_aftermarket);
