-- The indexes only the Postgres engine's searches read (src/search/postgres/search-indexes.ts) can
-- be set aside where OpenSearch answers the searches (`npm run db:search-indexes -- drop`): every
-- write to the stock then maintains three indexes instead of ten. Their definitions are kept here,
-- as the catalog gave them, so `npm run db:search-indexes -- create` builds them again exactly.
CREATE TABLE search_indexes_set_aside (
  name        text PRIMARY KEY,
  definition  text NOT NULL,
  set_aside_at timestamptz NOT NULL DEFAULT now()
);
