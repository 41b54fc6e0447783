-- The title's and description's words were a stored column of every item (search_vector), computed
-- and written with each item a seller creates or changes. Only the Postgres engine's text search
-- reads them, through its GIN index; where OpenSearch answers the searches that index is set aside
-- (sql/0038) and the column served no reader, yet it was most of the cost of writing an item (the
-- words parsed, a row several times wider). The words are now an expression: the GIN index is built
-- over it (computed when an item is written only while the index exists), and the Postgres engine
-- computes it for the rows a text search matches to rank them.
CREATE FUNCTION stock_search_vector(title text, description text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT setweight(to_tsvector('simple', public.f_unaccent(coalesce(title, ''))), 'A') ||
               setweight(to_tsvector('simple', public.f_unaccent(coalesce(description, ''))), 'B') $$;

DO $$
DECLARE
  built boolean := to_regclass('public.stock_items_search_vector_idx') IS NOT NULL;
BEGIN
  -- drops its index with it
  ALTER TABLE stock_items DROP COLUMN search_vector;
  IF built THEN
    CREATE INDEX stock_items_search_vector_idx ON stock_items
      USING gin (stock_search_vector(title, description));
  END IF;
  -- set aside (`npm run db:search-indexes -- drop`): what `create` builds names the column no more
  UPDATE search_indexes_set_aside
     SET definition = 'CREATE INDEX stock_items_search_vector_idx ON public.stock_items USING gin (stock_search_vector(title, description))'
   WHERE name = 'stock_items_search_vector_idx';
END
$$;
