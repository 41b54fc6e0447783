-- Real payment providers (issue 18): the sandbox checkout and Stripe Checkout.
--
-- A payment now also ends 'cancelled' (the buyer left the sandbox checkout) or 'refunded' (the
-- provider gave the money back after the credits were granted). The provider's own ids are kept:
-- its checkout session (Stripe: cs_…) and its payment (Stripe: the PaymentIntent pi_…, which a
-- refund names). A refund records what was returned and how many credits were taken back (never
-- more than the balance held: see payments.ts, applyRefund).
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'paid', 'failed', 'expired', 'cancelled', 'refunded'));
ALTER TABLE payments
  ADD COLUMN provider_session_id text,
  ADD COLUMN provider_payment_id text,
  ADD COLUMN updated_at timestamptz,
  ADD COLUMN refunded_at timestamptz,
  ADD COLUMN refunded_eur numeric(10, 2),
  ADD COLUMN credits_reversed integer CHECK (credits_reversed >= 0);
CREATE UNIQUE INDEX payments_provider_session_key ON payments (provider, provider_session_id)
  WHERE provider_session_id IS NOT NULL;
CREATE INDEX payments_provider_payment_idx ON payments (provider, provider_payment_id)
  WHERE provider_payment_id IS NOT NULL;
