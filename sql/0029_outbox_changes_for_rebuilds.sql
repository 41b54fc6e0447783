-- What a rebuild of the search index must replay, exactly.
--
-- A rebuild reads the stock while changes keep arriving, then replays "every change after the
-- moment it started" into the new index. That moment was the highest outbox id, but a change to an
-- item whose row was still pending updates that row in place (one pending row per item): it kept
-- its old id and was never replayed. Every recorded change now draws a number from one sequence,
-- on insert and on each update of a pending row, so "after the mark" means after, whatever row
-- holds it.
CREATE SEQUENCE search_outbox_change_seq;
ALTER TABLE search_outbox ADD COLUMN change_seq bigint;
UPDATE search_outbox SET change_seq = nextval('search_outbox_change_seq');
ALTER TABLE search_outbox ALTER COLUMN change_seq SET DEFAULT nextval('search_outbox_change_seq');
ALTER TABLE search_outbox ALTER COLUMN change_seq SET NOT NULL;
CREATE INDEX search_outbox_change_seq_idx ON search_outbox (change_seq);

CREATE OR REPLACE FUNCTION search_outbox_record(p_item bigint, p_version bigint, p_deleted boolean)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_outbox (item_id, version, deleted) VALUES (p_item, p_version, p_deleted)
  ON CONFLICT (item_id) WHERE done_at IS NULL
  DO UPDATE SET version = greatest(search_outbox.version, excluded.version), deleted = excluded.deleted,
                change_seq = nextval('search_outbox_change_seq');
  -- Only a wake-up for the relay, which polls anyway; identical notifications in one
  -- transaction are delivered once.
  PERFORM pg_notify('search_outbox', '');
END $$;

-- Rebuilds in progress and the change they will replay from. The indexer prunes relayed outbox
-- rows after an hour; a rebuild of a large stock can take longer, and the rows after its mark are
-- the ones it replays. A rebuild renews its heartbeat as it loads; one that stopped renewing it
-- (its process died) no longer holds rows back.
CREATE TABLE search_rebuilds (
  index_name   text PRIMARY KEY,
  change_mark  bigint NOT NULL,
  started_at   timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);
