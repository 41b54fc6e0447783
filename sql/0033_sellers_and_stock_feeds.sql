-- Sellers load and keep their own stock (issue 30).
--
-- A seller (a vendors row) may belong to an account, which manages it through the API; sellers
-- without an account (the generated and demo data, imports by the operator) are operator-owned.
ALTER TABLE vendors ADD COLUMN account_id bigint REFERENCES accounts (id) ON DELETE SET NULL;
CREATE INDEX vendors_account_idx ON vendors (account_id) WHERE account_id IS NOT NULL;

-- Every item has its seller's own identifier, the SKU, unique per seller: the identity feeds and
-- single-item calls use. Items loaded before it take their id as SKU; loaders that name none
-- (the generator, the fixtures) get the same. The SKU is not part of the search document, so the
-- backfill runs without the triggers: it changes no version and owes the index nothing.
ALTER TABLE stock_items ADD COLUMN sku text;
ALTER TABLE stock_items DISABLE TRIGGER stock_items_touch;
ALTER TABLE stock_items DISABLE TRIGGER stock_items_outbox;
UPDATE stock_items SET sku = id::text WHERE sku IS NULL;
ALTER TABLE stock_items ENABLE TRIGGER stock_items_touch;
ALTER TABLE stock_items ENABLE TRIGGER stock_items_outbox;

CREATE OR REPLACE FUNCTION stock_items_default_sku() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sku IS NULL THEN
    NEW.sku := NEW.id::text;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER stock_items_default_sku BEFORE INSERT ON stock_items
  FOR EACH ROW EXECUTE FUNCTION stock_items_default_sku();

ALTER TABLE stock_items ALTER COLUMN sku SET NOT NULL;
ALTER TABLE stock_items ADD CONSTRAINT stock_items_sku_length CHECK (length(sku) BETWEEN 1 AND 100);
CREATE UNIQUE INDEX stock_items_vendor_sku_idx ON stock_items (vendor_id, sku);

-- API keys carry scopes: searching (what every key did so far, the default) and/or writing one
-- seller's stock, which binds the key to that seller.
ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{search}';
ALTER TABLE api_keys ADD COLUMN seller_id bigint REFERENCES vendors (id) ON DELETE CASCADE;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_known_scopes
  CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['search', 'stock:write']);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_seller_of_stock_scope
  CHECK (('stock:write' = ANY (scopes)) = (seller_id IS NOT NULL));

-- A feed: a seller's stock sent whole (full) or in part (delta), as received, then validated and
-- applied by a feed worker. At most one feed of a seller is validated or applied at a time; later
-- ones wait their turn (received).
CREATE TABLE stock_feeds (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  vendor_id    bigint NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
  -- who sent it; null: the operator's command
  account_id   bigint REFERENCES accounts (id) ON DELETE SET NULL,
  mode         text NOT NULL CHECK (mode IN ('full', 'delta')),
  format       text NOT NULL CHECK (format IN ('csv', 'jsonl')),
  gzipped      boolean NOT NULL DEFAULT false,
  dry_run      boolean NOT NULL DEFAULT false,
  -- a full feed that would remove more than the threshold, or an empty one, is refused without it
  force        boolean NOT NULL DEFAULT false,
  status       text NOT NULL DEFAULT 'receiving'
               CHECK (status IN ('receiving', 'received', 'validating', 'applying', 'done', 'refused', 'failed')),
  bytes        bigint NOT NULL DEFAULT 0,
  lines        integer NOT NULL DEFAULT 0,
  created      integer NOT NULL DEFAULT 0,
  updated      integer NOT NULL DEFAULT 0,
  unchanged    integer NOT NULL DEFAULT 0,
  removed      integer NOT NULL DEFAULT 0,
  rejected     integer NOT NULL DEFAULT 0,
  warnings     jsonb NOT NULL DEFAULT '[]',
  -- why a feed was refused or failed (Portuguese, for the seller)
  reason       text,
  reason_code  text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  received_at  timestamptz,
  started_at   timestamptz,
  finished_at  timestamptz,
  -- renewed by the worker while it holds the feed; a feed whose worker stopped renewing it is
  -- taken over (validation again from the start; an application either committed or not at all)
  heartbeat_at timestamptz
);
CREATE INDEX stock_feeds_vendor_idx ON stock_feeds (vendor_id, id DESC);
-- two feeds of one seller are never validated or applied at once, whichever workers take them
CREATE UNIQUE INDEX stock_feeds_one_at_a_time_idx ON stock_feeds (vendor_id) WHERE status IN ('validating', 'applying');
CREATE INDEX stock_feeds_waiting_idx ON stock_feeds (id) WHERE status IN ('received', 'validating', 'applying');

-- The body as received, in chunks: the worker that applies it may be another process on another
-- machine, and the upload is never held whole in memory.
CREATE TABLE stock_feed_chunks (
  feed_id bigint NOT NULL REFERENCES stock_feeds (id) ON DELETE CASCADE,
  seq     integer NOT NULL,
  data    bytea NOT NULL,
  PRIMARY KEY (feed_id, seq)
);

-- Every rejected line of a feed, for the seller's error report.
CREATE TABLE stock_feed_errors (
  id      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  feed_id bigint NOT NULL REFERENCES stock_feeds (id) ON DELETE CASCADE,
  line    integer NOT NULL,
  sku     text,
  field   text,
  message text NOT NULL
);
CREATE INDEX stock_feed_errors_feed_idx ON stock_feed_errors (feed_id, id);

-- A feed's valid lines, parsed, while it is validated and applied (emptied after). Not logged:
-- a crash loses them with the work in progress, which starts again from the chunks.
CREATE UNLOGGED TABLE stock_feed_lines (
  feed_id         bigint NOT NULL,
  line            integer NOT NULL,
  sku             text NOT NULL,
  remove          boolean NOT NULL DEFAULT false,
  reference       text,
  title           text,
  description     text,
  condition       text,
  price           numeric(12, 2),
  currency        char(3),
  quantity        integer,
  is_oem          boolean,
  is_aftermarket  boolean,
  vehicle_make    text,
  vehicle_model   text,
  vehicle_variant text,
  part_id         integer,
  country         char(2),
  refs            text[]
);
CREATE INDEX stock_feed_lines_feed_idx ON stock_feed_lines (feed_id, sku);
