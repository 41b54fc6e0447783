-- The parts catalog is filtered by name in the caller's language on every `q`: keep the folded
-- name per language instead of unaccenting 1,656 JSON values per request.
ALTER TABLE catalog_parts
  ADD COLUMN name_fold_pt text GENERATED ALWAYS AS (f_fold(names ->> 'pt')) STORED,
  ADD COLUMN name_fold_en text GENERATED ALWAYS AS (f_fold(names ->> 'en')) STORED,
  ADD COLUMN name_fold_es text GENERATED ALWAYS AS (f_fold(names ->> 'es')) STORED,
  ADD COLUMN name_fold_fr text GENERATED ALWAYS AS (f_fold(names ->> 'fr')) STORED,
  ADD COLUMN name_fold_de text GENERATED ALWAYS AS (f_fold(names ->> 'de')) STORED,
  ADD COLUMN name_fold_it text GENERATED ALWAYS AS (f_fold(names ->> 'it')) STORED;
