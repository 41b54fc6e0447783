-- Daily spending is counted on the rows that carry the limits, so the debit statement can check a
-- limit on the row it has just locked: correct under any concurrency, and no ledger sum per search.
-- spent_today belongs to the UTC day spent_day; a new day starts from 0.
ALTER TABLE accounts ADD COLUMN spent_day date, ADD COLUMN spent_today integer NOT NULL DEFAULT 0 CHECK (spent_today >= 0);
ALTER TABLE api_keys ADD COLUMN spent_day date, ADD COLUMN spent_today integer NOT NULL DEFAULT 0 CHECK (spent_today >= 0);
