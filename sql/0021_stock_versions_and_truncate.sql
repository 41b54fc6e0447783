-- Document versions from one sequence instead of a per-row counter. The indexer writes an item's
-- version as the document's external version, and the cluster keeps a document (or a deletion's
-- tombstone) only against a higher version. With per-row counters an item deleted at version 5 and
-- inserted again with the same id would start at 1 and be refused until its sixth change. Drawn
-- from one sequence (no cache, so values follow the order of the calls), every write outranks
-- every earlier one, whatever happened to the id before.
CREATE SEQUENCE stock_item_version_seq;
SELECT setval('stock_item_version_seq', greatest(
  (SELECT coalesce(max(version), 0) FROM stock_items),
  (SELECT coalesce(max(version), 0) FROM search_outbox),
  1));
ALTER TABLE stock_items ALTER COLUMN version SET DEFAULT nextval('stock_item_version_seq');

CREATE OR REPLACE FUNCTION stock_items_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A BEFORE trigger runs once the row is locked, so of two updates of one row the later
  -- draws the higher version.
  NEW.version := nextval('stock_item_version_seq');
  NEW.updated_at := now();
  RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION stock_items_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- The tombstone outranks every version the document had.
    PERFORM search_outbox_record(OLD.id, nextval('stock_item_version_seq'), true);
  ELSE
    PERFORM search_outbox_record(NEW.id, NEW.version, false);
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE removes rows without row triggers, so no tombstones: the index would keep every
-- document of the old stock. It asks the indexer for a full rebuild instead (a new index from
-- Postgres, then the alias swap), which the indexer notices within seconds.
ALTER TABLE search_indexer_state ADD COLUMN rebuild_requested_at timestamptz;

CREATE OR REPLACE FUNCTION stock_items_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF search_indexer_enabled() THEN
    UPDATE search_indexer_state SET rebuild_requested_at = now() WHERE singleton;
    PERFORM pg_notify('search_outbox', '');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_items_truncated AFTER TRUNCATE ON stock_items
  FOR EACH STATEMENT EXECUTE FUNCTION stock_items_truncated();
