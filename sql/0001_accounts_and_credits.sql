-- Accounts, credentials and the credit ledger. Constraints do the guarding: a balance can never
-- go negative, an e-mail is unique whatever its case, a key or token hash exists once.
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is only STABLE (it reads a dictionary); pinning the dictionary makes it safe to use
-- in generated columns and expression indexes.
CREATE OR REPLACE FUNCTION f_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;

-- Case- and accent-folded form used for names, makes and models.
CREATE OR REPLACE FUNCTION f_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.f_unaccent($1)) $$;

CREATE TABLE accounts (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email              text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  name               text,
  password_hash      text NOT NULL,
  credits            integer NOT NULL DEFAULT 0 CHECK (credits >= 0),
  daily_credit_limit integer CHECK (daily_credit_limit > 0),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));

-- Bearer tokens issued by login; only the SHA-256 of the token is kept.
CREATE TABLE sessions (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash  bytea NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  revoked_at  timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX sessions_account_idx ON sessions (account_id);

CREATE TABLE api_keys (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id            bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name                  text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  prefix                text NOT NULL,
  key_hash              bytea NOT NULL UNIQUE,
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  rate_limit_per_hour   integer CHECK (rate_limit_per_hour > 0),
  daily_credit_limit    integer CHECK (daily_credit_limit > 0),
  created_at            timestamptz NOT NULL DEFAULT now(),
  last_used_at          timestamptz,
  revoked_at            timestamptz
);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

CREATE TABLE credit_packages (
  id         text PRIMARY KEY,
  name       text NOT NULL,
  credits    integer NOT NULL CHECK (credits > 0),
  price_eur  numeric(10, 2) NOT NULL CHECK (price_eur > 0),
  active     boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 0
);
INSERT INTO credit_packages (id, name, credits, price_eur, sort_order) VALUES
  ('starter',  'Starter',  500,    19.00, 1),
  ('pro',      'Pro',      2500,   79.00, 2),
  ('business', 'Business', 10000,  249.00, 3),
  ('scale',    'Scale',    50000,  990.00, 4);

CREATE TABLE payments (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id   bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  package_id   text NOT NULL REFERENCES credit_packages (id),
  provider     text NOT NULL,
  provider_ref text NOT NULL,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed', 'expired')),
  credits      integer NOT NULL CHECK (credits > 0),
  amount_eur   numeric(10, 2) NOT NULL,
  checkout_url text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  paid_at      timestamptz,
  UNIQUE (provider, provider_ref)
);
CREATE INDEX payments_account_idx ON payments (account_id);

-- One row per search or stats request that reached the engine (charged or not).
CREATE TABLE searches (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id    bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  api_key_id    bigint REFERENCES api_keys (id) ON DELETE SET NULL,
  kind          text NOT NULL CHECK (kind IN ('search', 'stats')),
  query         jsonb NOT NULL,
  query_summary text NOT NULL,
  total         integer NOT NULL CHECK (total >= 0),
  page          integer NOT NULL DEFAULT 1,
  per_page      integer NOT NULL DEFAULT 20,
  credits_spent integer NOT NULL CHECK (credits_spent >= 0),
  token_status  text NOT NULL DEFAULT 'none',
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX searches_account_created_idx ON searches (account_id, created_at DESC);

-- Every change of a balance, with the balance after it: the sum of deltas is the balance.
CREATE TABLE credit_ledger (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id    bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  api_key_id    bigint REFERENCES api_keys (id) ON DELETE SET NULL,
  kind          text NOT NULL CHECK (kind IN ('signup', 'search', 'stats', 'purchase', 'adjustment')),
  delta         integer NOT NULL,
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  search_id     bigint REFERENCES searches (id) ON DELETE SET NULL,
  payment_id    bigint REFERENCES payments (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_account_created_idx ON credit_ledger (account_id, created_at DESC);
-- A payment grants credits once, however often its webhook arrives.
CREATE UNIQUE INDEX credit_ledger_payment_key ON credit_ledger (payment_id) WHERE kind = 'purchase';
