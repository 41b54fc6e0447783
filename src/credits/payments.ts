import { sql } from 'kysely';
import { randomBase62 } from '../accounts/credentials.js';
import type { Database } from '../db/database.js';
import { notFound } from '../errors.js';

export interface PackageRow {
  id: string;
  name: string;
  credits: number;
  price_eur: string;
}

export interface StartedPurchase {
  paymentId: string;
  reference: string;
  package: PackageRow;
  checkoutUrl: string;
  createdAt: Date;
}

export function activePackages(db: Database): Promise<PackageRow[]> {
  return db
    .selectFrom('credit_packages')
    .select(['id', 'name', 'credits', 'price_eur'])
    .where('active', '=', true)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/**
 * Records a pending payment for a package and returns the provider's hosted checkout address for
 * it. Nothing is credited here: only a verified webhook (confirmPayment) grants credits.
 */
export async function startPurchase(
  db: Database,
  accountId: string,
  packageId: string,
  checkoutBase: string,
  now: Date,
): Promise<StartedPurchase> {
  const packages = await activePackages(db);
  const chosen = packages.find((p) => p.id === packageId);
  if (!chosen) {
    throw notFound(
      `Pacote de créditos desconhecido: ${packageId}. Disponíveis: ${packages.map((p) => p.id).join(', ')}.`,
      'PACKAGE_NOT_FOUND',
    );
  }
  const reference = `pay_${randomBase62(24)}`;
  const checkout = new URL(checkoutBase);
  checkout.searchParams.set('payment', reference);
  checkout.searchParams.set('amount', chosen.price_eur);
  checkout.searchParams.set('currency', 'EUR');
  const row = await db
    .insertInto('payments')
    .values({
      account_id: accountId,
      package_id: chosen.id,
      provider: 'checkout',
      provider_ref: reference,
      credits: chosen.credits,
      amount_eur: chosen.price_eur,
      checkout_url: checkout.toString(),
      created_at: now,
    })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
  return {
    paymentId: row.id,
    reference,
    package: chosen,
    checkoutUrl: checkout.toString(),
    createdAt: row.created_at,
  };
}

/** Statuses the provider's verdict may still change (see confirmPayment). */
const OPEN_STATUSES = new Set(['pending', 'failed', 'expired']);

export type PaymentOutcome =
  | { result: 'credited'; credits: number; balance: number; accountId: string }
  | { result: 'already_paid' }
  | { result: 'failed' }
  | { result: 'not_pending'; status: string };

/**
 * Applies the provider's verdict. The provider's last word wins until the payment is paid:
 *
 *   pending ─failed─▶ failed ─succeeded─▶ paid      pending ─succeeded─▶ paid
 *
 * A failure is not final (the buyer may retry on the provider's page and pay: the success that
 * follows credits the payment); paid is final (a later or replayed failure, or a second success,
 * changes nothing: `already_paid`). An `expired` payment is credited by a success like a failed one.
 * Any other status (none is written today) is left as it is: `not_pending`. A success moves the
 * payment to paid, adds its credits and writes the `purchase` ledger row in one transaction, under
 * the payment's row lock, so concurrent deliveries credit once (the ledger's unique payment index
 * is the backstop).
 */
export async function confirmPayment(
  db: Database,
  reference: string,
  succeeded: boolean,
  now: Date,
): Promise<PaymentOutcome> {
  return db.transaction().execute(async (trx) => {
    const payment = await trx
      .selectFrom('payments')
      .select(['id', 'account_id', 'credits', 'status'])
      .where('provider', '=', 'checkout')
      .where('provider_ref', '=', reference)
      .forUpdate()
      .executeTakeFirst();
    if (!payment) throw notFound(`Pagamento desconhecido: ${reference}.`, 'PAYMENT_NOT_FOUND');
    if (payment.status === 'paid') return { result: 'already_paid' };
    if (!OPEN_STATUSES.has(payment.status)) return { result: 'not_pending', status: payment.status };
    if (!succeeded) {
      await trx.updateTable('payments').set({ status: 'failed' }).where('id', '=', payment.id).execute();
      return { result: 'failed' };
    }
    await trx
      .updateTable('payments')
      .set({ status: 'paid', paid_at: now })
      .where('id', '=', payment.id)
      .execute();
    const account = await trx
      .updateTable('accounts')
      .set({ credits: sql`credits + ${payment.credits}`, updated_at: now })
      .where('id', '=', payment.account_id)
      .returning('credits')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('credit_ledger')
      .values({
        account_id: payment.account_id,
        kind: 'purchase',
        delta: payment.credits,
        balance_after: account.credits,
        payment_id: payment.id,
        created_at: now,
      })
      .execute();
    return {
      result: 'credited',
      credits: payment.credits,
      balance: account.credits,
      accountId: payment.account_id,
    };
  });
}
