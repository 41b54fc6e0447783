-- Indexes for search at a million items. Price order with id as tie-break is the default order,
-- so most filters are served as (filter, price, id).
CREATE INDEX stock_items_reference_norm_idx ON stock_items (reference_norm);
CREATE INDEX stock_items_xref_group_idx ON stock_items (xref_group_id) WHERE xref_group_id IS NOT NULL;
CREATE INDEX stock_items_part_idx ON stock_items (part_id, price, id);
CREATE INDEX stock_items_make_model_idx ON stock_items (make_norm, model_norm text_pattern_ops);
CREATE INDEX stock_items_make_price_idx ON stock_items (make_norm, price, id);
CREATE INDEX stock_items_price_idx ON stock_items (price, id);
CREATE INDEX stock_items_vendor_idx ON stock_items (vendor_id);
CREATE INDEX stock_items_search_vector_idx ON stock_items USING gin (search_vector);
