import type { Database } from '../db/database.js';
import type { PaymentStatus } from '../db/schema.js';
import { moveCredits } from '../credits/credit-movements.js';
import { notFound } from '../errors.js';
import type { PaymentEvent, ProviderName } from './provider.js';

/** Statuses the provider's verdict may still change (see applyEvent). */
const OPEN_STATUSES = new Set<PaymentStatus>(['pending', 'failed', 'expired', 'cancelled']);

export type PaymentOutcome =
  | { result: 'credited'; credits: number; balance: number; accountId: string }
  | { result: 'already_paid' }
  | { result: 'failed' | 'expired' | 'cancelled' | 'awaiting' }
  | { result: 'refunded'; creditsReversed: number }
  | { result: 'partially_refunded' | 'already_refunded' }
  | { result: 'ignored' }
  | { result: 'not_pending'; status: string };

export const PAYMENT_RESULTS = [
  'credited',
  'already_paid',
  'failed',
  'expired',
  'cancelled',
  'awaiting',
  'refunded',
  'partially_refunded',
  'already_refunded',
  'ignored',
  'not_pending',
] as const;

/**
 * Applies a verified event. The provider's last word wins until the payment is paid:
 *
 *   pending ─failed|expired|cancelled─▶ (same) ─succeeded─▶ paid ─refund─▶ refunded
 *
 * A failure, expiry or cancellation is not final (the buyer may go back and pay: the success that
 * follows credits the payment); paid is final for every verdict but a refund (a later or replayed
 * verdict changes nothing: `already_paid`). A success moves the payment to paid, adds its credits
 * and writes the `purchase` ledger row in one transaction, under the payment's row lock, so
 * concurrent deliveries credit once (the ledger's unique payment index is the backstop).
 */
export async function applyEvent(
  db: Database,
  provider: ProviderName,
  event: PaymentEvent,
  now: Date,
): Promise<PaymentOutcome> {
  if (event.kind === 'ignored') return { result: 'ignored' };
  return db.transaction().execute(async (trx) => {
    const lookup = trx
      .selectFrom('payments')
      .select(['id', 'account_id', 'credits', 'status', 'provider_ref'])
      .where('provider', '=', provider);
    const payment = await (
      event.kind === 'refunded'
        ? lookup.where('provider_payment_id', '=', event.providerPaymentId)
        : lookup.where('provider_ref', '=', event.reference)
    )
      .forUpdate()
      .executeTakeFirst();
    if (!payment) {
      const name = event.kind === 'refunded' ? event.providerPaymentId : event.reference;
      throw notFound(`Pagamento desconhecido: ${name}.`, 'PAYMENT_NOT_FOUND');
    }
    if (event.kind === 'refunded') return applyRefund(trx, payment, event, now);
    if (payment.status === 'paid') return { result: 'already_paid' };
    if (!OPEN_STATUSES.has(payment.status)) return { result: 'not_pending', status: payment.status };
    if (event.kind === 'awaiting') return { result: 'awaiting' };
    if (event.kind !== 'succeeded') {
      await trx
        .updateTable('payments')
        .set({ status: event.kind, updated_at: now })
        .where('id', '=', payment.id)
        .execute();
      return { result: event.kind };
    }
    await trx
      .updateTable('payments')
      .set({
        status: 'paid',
        paid_at: now,
        updated_at: now,
        ...(event.providerPaymentId ? { provider_payment_id: event.providerPaymentId } : {}),
      })
      .where('id', '=', payment.id)
      .execute();
    const { balance } = await moveCredits(trx, {
      accountId: payment.account_id,
      delta: payment.credits,
      kind: 'purchase',
      paymentId: payment.id,
      now,
    });
    return {
      result: 'credited',
      credits: payment.credits,
      balance,
      accountId: payment.account_id,
    };
  });
}

/**
 * A refund. The money went back, so the credits it bought go back too, but only those still held:
 * a balance never goes below zero, and credits already spent on searches stay spent (what could
 * not be taken back is the difference between `credits` and `credits_reversed`, on the payment
 * row, for a person to settle). A partial refund is recorded (`refunded_eur`) and takes nothing
 * back: how many credits a part of the price is worth is a decision for a person, not for a
 * webhook. A refund of a payment never credited is recorded and takes nothing.
 */
async function applyRefund(
  trx: Database,
  payment: { id: string; account_id: string; credits: number; status: PaymentStatus },
  event: Extract<PaymentEvent, { kind: 'refunded' }>,
  now: Date,
): Promise<PaymentOutcome> {
  if (payment.status === 'refunded') return { result: 'already_refunded' };
  const full = event.refundedCents >= event.amountCents;
  const record = { refunded_eur: (event.refundedCents / 100).toFixed(2), refunded_at: now, updated_at: now };
  if (payment.status !== 'paid' || !full) {
    await trx
      .updateTable('payments')
      .set({ ...record, ...(full ? { status: 'refunded', credits_reversed: 0 } : {}) })
      .where('id', '=', payment.id)
      .execute();
    return full ? { result: 'refunded', creditsReversed: 0 } : { result: 'partially_refunded' };
  }
  // the payment's row first (locked by applyEvent), then the account's: the order every writer of
  // both keeps
  const { moved } = await moveCredits(trx, {
    accountId: payment.account_id,
    delta: -payment.credits,
    kind: 'adjustment',
    paymentId: payment.id,
    atMostHeld: true,
    now,
  });
  const taken = -moved;
  await trx
    .updateTable('payments')
    .set({ ...record, status: 'refunded', credits_reversed: taken })
    .where('id', '=', payment.id)
    .execute();
  return { result: 'refunded', creditsReversed: taken };
}
