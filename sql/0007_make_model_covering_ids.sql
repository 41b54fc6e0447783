-- The item id joins the make/model index's covered columns: a vehicle search then finds, orders
-- and cuts its page from the index alone (index-only scan) and reads only the page's rows.
DROP INDEX IF EXISTS stock_items_make_model_idx;
CREATE INDEX stock_items_make_model_idx ON stock_items (make_norm, model_norm text_pattern_ops)
  INCLUDE (price, id, vendor_id, condition, location_country_code, is_oem, is_aftermarket, part_id);
