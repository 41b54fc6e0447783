-- `q` is a substring match ('%travao%'): trigram indexes answer it without reading every row.
CREATE INDEX catalog_parts_name_pt_trgm ON catalog_parts USING gin (name_fold_pt gin_trgm_ops);
CREATE INDEX catalog_parts_name_en_trgm ON catalog_parts USING gin (name_fold_en gin_trgm_ops);
CREATE INDEX catalog_parts_name_es_trgm ON catalog_parts USING gin (name_fold_es gin_trgm_ops);
CREATE INDEX catalog_parts_name_fr_trgm ON catalog_parts USING gin (name_fold_fr gin_trgm_ops);
CREATE INDEX catalog_parts_name_de_trgm ON catalog_parts USING gin (name_fold_de gin_trgm_ops);
CREATE INDEX catalog_parts_name_it_trgm ON catalog_parts USING gin (name_fold_it gin_trgm_ops);
CREATE INDEX vehicle_makes_name_trgm ON vehicle_makes USING gin (name_fold gin_trgm_ops);
