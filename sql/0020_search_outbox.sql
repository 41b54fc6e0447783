-- Transactional outbox for the OpenSearch indexer (indexer/). A stock change writes, in the same
-- transaction, "item X is now at version V" here; the indexer's relay turns pending rows into
-- BullMQ jobs and marks them done; the worker re-reads the item and writes it with V as the
-- document's external version.
--
-- Only written while an indexer is in use: the indexer (and `npm run reindex`) set
-- search_indexer_state.enabled. The embedded shape (PGlite, Postgres engine) never does, so
-- nothing is written there and nothing can pile up unread.
CREATE TABLE search_indexer_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  enabled   boolean NOT NULL DEFAULT false,
  enabled_at timestamptz
);
INSERT INTO search_indexer_state (singleton, enabled) VALUES (true, false);

CREATE TABLE search_outbox (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_id    bigint NOT NULL,
  -- the item's version after the change; for a deletion one above the last version it had
  version    bigint NOT NULL,
  deleted    boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  done_at    timestamptz
);
-- One pending row per item: a burst of changes to an item (the row, then its references) is one
-- row carrying the latest version. Done rows are kept briefly for the lag figures, then pruned.
CREATE UNIQUE INDEX search_outbox_pending_item_idx ON search_outbox (item_id) WHERE done_at IS NULL;
CREATE INDEX search_outbox_pending_idx ON search_outbox (id) WHERE done_at IS NULL;
CREATE INDEX search_outbox_done_idx ON search_outbox (done_at) WHERE done_at IS NOT NULL;

CREATE OR REPLACE FUNCTION search_indexer_enabled() RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT coalesce((SELECT enabled FROM search_indexer_state WHERE singleton), false) $$;

CREATE OR REPLACE FUNCTION search_outbox_record(p_item bigint, p_version bigint, p_deleted boolean)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_outbox (item_id, version, deleted) VALUES (p_item, p_version, p_deleted)
  ON CONFLICT (item_id) WHERE done_at IS NULL
  DO UPDATE SET version = greatest(search_outbox.version, excluded.version), deleted = excluded.deleted;
  -- Only a wake-up for the relay, which polls anyway; identical notifications in one
  -- transaction are delivered once.
  PERFORM pg_notify('search_outbox', '');
END $$;

CREATE OR REPLACE FUNCTION stock_items_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    -- The tombstone outranks every version the document had.
    PERFORM search_outbox_record(OLD.id, OLD.version + 1, true);
  ELSE
    PERFORM search_outbox_record(NEW.id, NEW.version, false);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_items_outbox AFTER INSERT OR UPDATE OR DELETE ON stock_items
  FOR EACH ROW EXECUTE FUNCTION stock_items_outbox();

-- A change to an item's associated references changes its document: touching the item bumps
-- its version (stock_items_touch), which records it in the outbox above.
CREATE OR REPLACE FUNCTION stock_item_references_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE stock_items SET version = version WHERE id = OLD.item_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND (TG_OP = 'INSERT' OR NEW.item_id <> OLD.item_id) THEN
    UPDATE stock_items SET version = version WHERE id = NEW.item_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_item_references_outbox AFTER INSERT OR UPDATE OR DELETE ON stock_item_references
  FOR EACH ROW EXECUTE FUNCTION stock_item_references_outbox();

-- Cross-reference group references are copied into every item of the group.
CREATE OR REPLACE FUNCTION xref_group_references_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE stock_items SET version = version WHERE xref_group_id = OLD.group_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE stock_items SET version = version WHERE xref_group_id = NEW.group_id
      AND (TG_OP = 'INSERT' OR NEW.group_id <> OLD.group_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER xref_group_references_outbox AFTER INSERT OR UPDATE OR DELETE ON xref_group_references
  FOR EACH ROW EXECUTE FUNCTION xref_group_references_outbox();
