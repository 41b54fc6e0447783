-- Idempotency-Key on POST /data/search, /data/search/stats and /data/credits/purchase.
--
-- Kept here, not in Redis: a charged search's response is written in the same transaction as its
-- charge (the ledger, the history row), so a replay always agrees with what was charged, even when
-- the process ends between the commit and the answer; Redis in this service is a cache that may
-- be down or restarted empty (rate limits fall back to memory), which must never lead to a second
-- charge for one key.
--
-- A key belongs to one account. `fingerprint` is a SHA-256 of the route and the request's
-- parameters: the same key with other parameters is refused. `attempt` names the request holding
-- the key: while `state` is 'in_flight' another request with the key gets 409, until `locked_at`
-- is older than the lease (an attempt whose process ended), when a retry takes the key over; the
-- response is stored only by the attempt still holding it. Keys are kept 24 hours from
-- `created_at` and then pruned.
CREATE TABLE idempotency_keys (
  account_id   bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  idem_key     text        NOT NULL,
  fingerprint  bytea       NOT NULL,
  attempt      text        NOT NULL,
  state        text        NOT NULL CHECK (state IN ('in_flight', 'done')),
  created_at   timestamptz NOT NULL,
  locked_at    timestamptz NOT NULL,
  -- the stored response, once done: status, the headers the route set, the body as sent
  status       integer,
  headers      jsonb,
  body         text,
  PRIMARY KEY (account_id, idem_key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
