-- What the index owes is recorded once per statement instead of once per row: a seller's feed
-- writes hundreds of thousands of items in a few statements, and a PL/pgSQL call per row (with its
-- upsert and its notification) cost as much again as the rows themselves. Same rows in
-- search_outbox as before, in the same transaction as the change.

DROP TRIGGER stock_items_outbox ON stock_items;

CREATE OR REPLACE FUNCTION stock_items_outbox_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  -- in item order, as confirmDelivered (indexer/outbox.ts) takes its locks: two statements that
  -- meet on rows still owed wait for each other instead of deadlocking
  INSERT INTO search_outbox (item_id, version, deleted)
  SELECT id, version, false FROM written ORDER BY id
  ON CONFLICT (item_id) WHERE done_at IS NULL
  DO UPDATE SET version = greatest(search_outbox.version, excluded.version), deleted = excluded.deleted,
                change_seq = nextval('search_outbox_change_seq'),
                available_at = now(), job_id = NULL, rejected_reason = NULL, rejected_at = NULL;
  IF FOUND THEN
    PERFORM pg_notify('search_outbox', '');
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION stock_items_outbox_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled() THEN
    RETURN NULL;
  END IF;
  -- The tombstone outranks every version the document had.
  INSERT INTO search_outbox (item_id, version, deleted)
  SELECT id, nextval('stock_item_version_seq'), true FROM removed ORDER BY id
  ON CONFLICT (item_id) WHERE done_at IS NULL
  DO UPDATE SET version = greatest(search_outbox.version, excluded.version), deleted = excluded.deleted,
                change_seq = nextval('search_outbox_change_seq'),
                available_at = now(), job_id = NULL, rejected_reason = NULL, rejected_at = NULL;
  IF FOUND THEN
    PERFORM pg_notify('search_outbox', '');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER stock_items_outbox_inserted AFTER INSERT ON stock_items
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION stock_items_outbox_written();
CREATE TRIGGER stock_items_outbox_updated AFTER UPDATE ON stock_items
  REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION stock_items_outbox_written();
CREATE TRIGGER stock_items_outbox_deleted AFTER DELETE ON stock_items
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION stock_items_outbox_removed();

DROP FUNCTION stock_items_outbox();

-- A change to an item's associated references touches the item (a new version, so a new document),
-- except in a transaction that writes every item whose references it changes anyway, and says so:
-- a feed's apply. Its own writes of the items record them; a touch per reference would give each a
-- second version and write every row again.
CREATE OR REPLACE FUNCTION stock_item_references_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT search_indexer_enabled()
     OR coalesce(current_setting('stock.items_written_with_references', true), '') = 'on' THEN
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
