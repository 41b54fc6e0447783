-- PostgreSQL is the ledger of what the search index owes (issue 25).
--
-- Until now the relay marked an outbox row done as soon as it had handed it to BullMQ: a job lost
-- in Redis (a restart without persistence, an eviction) or failed after its attempts was a change
-- lost from the index for good. Now a row stays owed until the worker has seen OpenSearch
-- acknowledge that item at that version or later, and the relay hands out again whatever was not
-- confirmed within a lease, whatever happened to the queue.
--
--   available_at     when the relay may hand the row out (again): now for a new change; a lease's
--                    end once handed out; a later time for a document the cluster refused
--   job_id           the queue job it was last handed to (the relay asks the queue whether that job
--                    is still alive before handing the row out again)
--   handed_count     how often it was handed out (a row handed out many times is a symptom)
--   rejected_reason  the cluster refused the document for its content (a mapping error): kept
--                    owed, listed by index:verify, tried again later and after every new version
ALTER TABLE search_outbox
  ADD COLUMN available_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN job_id text,
  ADD COLUMN handed_count integer NOT NULL DEFAULT 0,
  ADD COLUMN rejected_reason text,
  ADD COLUMN rejected_at timestamptz;

-- What the relay claims: owed rows whose time has come, oldest first.
CREATE INDEX search_outbox_available_idx ON search_outbox (available_at, id) WHERE done_at IS NULL;
DROP INDEX IF EXISTS search_outbox_pending_idx;

-- A new version of an item still owed is handed out at once, in a job of its own (the job it was
-- handed to may already have read the older row), and clears a refusal: the new content may be fine.
CREATE OR REPLACE FUNCTION search_outbox_record(p_item bigint, p_version bigint, p_deleted boolean)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_outbox (item_id, version, deleted) VALUES (p_item, p_version, p_deleted)
  ON CONFLICT (item_id) WHERE done_at IS NULL
  DO UPDATE SET version = greatest(search_outbox.version, excluded.version), deleted = excluded.deleted,
                change_seq = nextval('search_outbox_change_seq'),
                available_at = now(), job_id = NULL, rejected_reason = NULL, rejected_at = NULL;
  -- Only a wake-up for the relay, which polls anyway; identical notifications in one
  -- transaction are delivered once.
  PERFORM pg_notify('search_outbox', '');
END $$;

-- A repair (index:verify --repair, the indexer's sweep) gives an item a new version so that it is
-- written again through the ordinary path, without claiming the item changed: updated_at, which
-- clients see as atualizado_em, is kept when the transaction says it is repairing.
CREATE OR REPLACE FUNCTION stock_items_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A BEFORE trigger runs once the row is locked, so of two updates of one row the later
  -- draws the higher version.
  NEW.version := nextval('stock_item_version_seq');
  IF coalesce(current_setting('search_index.repairing', true), '') <> 'on' THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END $$;

-- A seller's name is part of every document of its items: renaming it changes them all.
CREATE OR REPLACE FUNCTION vendors_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF search_indexer_enabled() AND NEW.name IS DISTINCT FROM OLD.name THEN
    UPDATE stock_items SET version = version WHERE vendor_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER vendors_outbox AFTER UPDATE OF name ON vendors
  FOR EACH ROW EXECUTE FUNCTION vendors_outbox();

-- The indexer's continuous verification: where its sweep over the id ranges stands (shared by every
-- indexer process, so two never sweep the same range and a restart goes on where it stopped) and
-- what the last complete sweep found.
ALTER TABLE search_indexer_state
  ADD COLUMN sweep_after_id bigint NOT NULL DEFAULT 0,
  ADD COLUMN sweep_started_at timestamptz,
  ADD COLUMN sweep_drift integer NOT NULL DEFAULT 0,
  ADD COLUMN last_sweep_completed_at timestamptz,
  ADD COLUMN last_sweep_drift integer;
