-- Why an operator moved an account's credits (npm run account:credits, issue 26): the ledger
-- says why a balance changed, not only by how much. Other movements explain themselves (a search,
-- a payment, the signup) and leave it null.
ALTER TABLE credit_ledger ADD COLUMN reason text;
