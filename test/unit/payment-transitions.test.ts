import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { moveCredits } from '../../src/credits/credit-movements.js';
import type { Database } from '../../src/db/database.js';
import { ServiceError } from '../../src/errors.js';
import { applyEvent } from '../../src/payments/payment-transitions.js';
import type { PaymentEvent } from '../../src/payments/provider.js';
import { createTestAccount, creditsOf } from '../helpers/accounts-fixture.js';
import { expectLedgerMatchesBalance } from '../helpers/ledger-check.js';
import { paymentLedger } from '../helpers/payments-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/**
 * A payment's transitions (src/payments/payment-transitions.ts), applied to a real test database:
 * what each verdict of the provider does to the payment, the balance and the ledger. The webhooks
 * that deliver them are test/integration/purchase*.test.ts.
 */
describe('applyEvent', () => {
  let database: TestDatabase;
  let db: Database;
  const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));
  let serial = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.handle.db;
  });
  afterAll(() => database?.drop());

  /**
   * An account holding `credits`, with a pending Starter payment (500 credits, 19 EUR) of its own;
   * `knownToProvider`: its provider payment id (what a refund names it by) is already recorded.
   */
  async function pendingPayment(credits = 50, knownToProvider = false) {
    const account = await createTestAccount(db, clock, { credits });
    const reference = `pay_unit_${++serial}`;
    const row = await db
      .insertInto('payments')
      .values({
        account_id: account.accountId,
        package_id: 'starter',
        provider: 'stripe',
        provider_ref: reference,
        provider_payment_id: knownToProvider ? `pi_${reference}` : null,
        credits: 500,
        amount_eur: '19.00',
        created_at: clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { accountId: account.accountId, paymentId: row.id, reference };
  }

  const apply = (event: PaymentEvent) => applyEvent(db, 'stripe', event, clock.now());
  const verdict = (kind: 'succeeded' | 'failed' | 'expired' | 'cancelled', reference: string) =>
    apply({ kind, reference, providerPaymentId: `pi_${reference}` });
  const refund = (reference: string, refundedCents: number, amountCents = 1900) =>
    apply({ kind: 'refunded', providerPaymentId: `pi_${reference}`, refundedCents, amountCents });
  const paymentRow = (id: string) =>
    db
      .selectFrom('payments')
      .select(['status', 'paid_at', 'provider_payment_id', 'refunded_eur', 'refunded_at', 'credits_reversed'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function refusal(event: PaymentEvent): Promise<ServiceError> {
    const error = await apply(event).then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof ServiceError)) throw new Error(`expected a ServiceError, got ${String(error)}`);
    return error;
  }

  it('pending → paid: credits the package once, with its purchase ledger row, in the same step', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    const outcome = await verdict('succeeded', reference);
    expect(outcome).toEqual({ result: 'credited', credits: 500, balance: 550, accountId });
    expect(await creditsOf(db, accountId)).toBe(550);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      paid_at: clock.now(),
      provider_payment_id: `pi_${reference}`,
    });
    expect(await paymentLedger(db, paymentId)).toEqual([{ kind: 'purchase', delta: 500 }]);
    await expectLedgerMatchesBalance(db, accountId);
  });

  it('a replayed success changes nothing: already_paid, however many arrive at once', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => verdict('succeeded', reference)));
    expect(outcomes.filter((o) => o.result === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o.result === 'already_paid')).toHaveLength(4);
    expect(await verdict('succeeded', reference)).toEqual({ result: 'already_paid' });
    // nor does a late failure: paid is final for every verdict but a refund
    expect(await verdict('failed', reference)).toEqual({ result: 'already_paid' });
    expect(await creditsOf(db, accountId)).toBe(550);
    expect((await paymentRow(paymentId)).status).toBe('paid');
    expect(await paymentLedger(db, paymentId)).toEqual([{ kind: 'purchase', delta: 500 }]);
  });

  it.each(['failed', 'expired', 'cancelled'] as const)(
    '%s is recorded and credits nothing; a success after it credits the payment',
    async (kind) => {
      const { accountId, paymentId, reference } = await pendingPayment(50);
      expect(await verdict(kind, reference)).toEqual({ result: kind });
      expect((await paymentRow(paymentId)).status).toBe(kind);
      expect(await creditsOf(db, accountId)).toBe(50);
      expect(await paymentLedger(db, paymentId)).toEqual([]);
      expect(await verdict('succeeded', reference)).toMatchObject({ result: 'credited', balance: 550 });
      expect((await paymentRow(paymentId)).status).toBe('paid');
      expect(await paymentLedger(db, paymentId)).toEqual([{ kind: 'purchase', delta: 500 }]);
    },
  );

  it('a payment still on its way (awaiting) stays pending and credits nothing', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    expect(await apply({ kind: 'awaiting', reference })).toEqual({ result: 'awaiting' });
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await creditsOf(db, accountId)).toBe(50);
  });

  it('a full refund takes back the credits while they are all held', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    await verdict('succeeded', reference);
    expect(await refund(reference, 1900)).toEqual({ result: 'refunded', creditsReversed: 500 });
    expect(await creditsOf(db, accountId)).toBe(50);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'refunded',
      refunded_eur: '19.00',
      refunded_at: clock.now(),
      credits_reversed: 500,
    });
    expect(await paymentLedger(db, paymentId)).toEqual([
      { kind: 'purchase', delta: 500 },
      { kind: 'adjustment', delta: -500 },
    ]);
    await expectLedgerMatchesBalance(db, accountId);
  });

  it('a full refund takes back at most what is held: spent credits stay spent, the balance stops at 0', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(0);
    await verdict('succeeded', reference);
    // 380 of the 500 spent since
    await db
      .transaction()
      .execute((trx) =>
        moveCredits(trx, { accountId, delta: -380, kind: 'adjustment', reason: 'spent', now: clock.now() }),
      );
    expect(await refund(reference, 1900)).toEqual({ result: 'refunded', creditsReversed: 120 });
    expect(await creditsOf(db, accountId)).toBe(0);
    expect(await paymentRow(paymentId)).toMatchObject({ status: 'refunded', credits_reversed: 120 });
    expect(await paymentLedger(db, paymentId)).toEqual([
      { kind: 'purchase', delta: 500 },
      { kind: 'adjustment', delta: -120 },
    ]);
    await expectLedgerMatchesBalance(db, accountId);
    // the same refund again, and a success replayed after it, change nothing
    expect(await refund(reference, 1900)).toEqual({ result: 'already_refunded' });
    expect(await verdict('succeeded', reference)).toEqual({ result: 'not_pending', status: 'refunded' });
    expect(await creditsOf(db, accountId)).toBe(0);
  });

  it('a partial refund is recorded and takes nothing back', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    await verdict('succeeded', reference);
    expect(await refund(reference, 500)).toEqual({ result: 'partially_refunded' });
    expect(await creditsOf(db, accountId)).toBe(550);
    expect(await paymentRow(paymentId)).toMatchObject({
      status: 'paid',
      refunded_eur: '5.00',
      credits_reversed: null,
    });
    expect(await paymentLedger(db, paymentId)).toEqual([{ kind: 'purchase', delta: 500 }]);
    // the rest refunded later: now the credits go back
    expect(await refund(reference, 1900)).toEqual({ result: 'refunded', creditsReversed: 500 });
    expect(await creditsOf(db, accountId)).toBe(50);
  });

  it('a refund of a payment never credited is recorded and takes nothing', async () => {
    // a payment the provider knows (its PaymentIntent) but whose success never came
    const first = await pendingPayment(50, true);
    expect(await refund(first.reference, 1900)).toEqual({ result: 'refunded', creditsReversed: 0 });
    expect(await creditsOf(db, first.accountId)).toBe(50);
    expect(await paymentRow(first.paymentId)).toMatchObject({
      status: 'refunded',
      refunded_eur: '19.00',
      credits_reversed: 0,
    });
    expect(await paymentLedger(db, first.paymentId)).toEqual([]);
    // and a success arriving after that refund credits nothing either
    expect(await verdict('succeeded', first.reference)).toEqual({
      result: 'not_pending',
      status: 'refunded',
    });
    expect(await creditsOf(db, first.accountId)).toBe(50);

    // a failed payment, refunded in part: recorded, still failed, nothing taken
    const second = await pendingPayment(50, true);
    expect(await verdict('failed', second.reference)).toEqual({ result: 'failed' });
    expect(await refund(second.reference, 700)).toEqual({ result: 'partially_refunded' });
    expect(await paymentRow(second.paymentId)).toMatchObject({ status: 'failed', refunded_eur: '7.00' });
    expect(await creditsOf(db, second.accountId)).toBe(50);
    await expectLedgerMatchesBalance(db, second.accountId);
  });

  it('an unknown payment is 404 PAYMENT_NOT_FOUND, and nothing changes', async () => {
    const { accountId, paymentId, reference } = await pendingPayment(50);
    const unknown = await refusal({ kind: 'succeeded', reference: 'pay_unknown' });
    expect(unknown.code).toBe('PAYMENT_NOT_FOUND');
    expect(unknown.kind).toBe('not_found');
    expect(unknown.message).toContain('pay_unknown');
    const unknownRefund = await refusal({
      kind: 'refunded',
      providerPaymentId: 'pi_unknown',
      refundedCents: 1900,
      amountCents: 1900,
    });
    expect(unknownRefund.code).toBe('PAYMENT_NOT_FOUND');
    expect(unknownRefund.message).toContain('pi_unknown');
    // a payment is the provider's: the same reference from another provider is not it
    const otherProvider = await applyEvent(db, 'sandbox', { kind: 'succeeded', reference }, clock.now()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(otherProvider).toBeInstanceOf(ServiceError);
    expect((otherProvider as ServiceError).code).toBe('PAYMENT_NOT_FOUND');
    expect(await creditsOf(db, accountId)).toBe(50);
    expect((await paymentRow(paymentId)).status).toBe('pending');
  });

  it('an event it does not act on changes nothing', async () => {
    const { accountId, paymentId } = await pendingPayment(50);
    expect(await apply({ kind: 'ignored', type: 'customer.created' })).toEqual({ result: 'ignored' });
    expect((await paymentRow(paymentId)).status).toBe('pending');
    expect(await creditsOf(db, accountId)).toBe(50);
  });
});
