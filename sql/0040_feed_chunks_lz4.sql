-- A feed's body is stored as it arrives, a megabyte at a time: compressed by pglz (the default),
-- storing a seller's 150 MB file cost several times what writing it did. lz4 compresses text as
-- well at a fraction of the CPU. Only where the server was built with it (PGlite is not): there
-- the default stays.
DO $$
BEGIN
  ALTER TABLE stock_feed_chunks ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
