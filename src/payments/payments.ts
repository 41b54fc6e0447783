import { sql } from 'kysely';
import { randomBase62 } from '../accounts/credentials.js';
import type { Principal } from '../accounts/principal.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { TransactionScope } from '../db/transaction-scope.js';
import { notFound, ServiceError } from '../errors.js';
import { verifyWebhook, type SignatureCheck } from './webhook-signature.js';

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

/** A provider's delivery to POST /payments/webhook. */
export interface WebhookDelivery {
  /** the body exactly as received: what the signature covers */
  rawBody: string;
  /** the X-Payment-Signature header */
  signature: string | undefined;
  /** the payment's reference (the `payment` of its checkout address) */
  payment: string;
  succeeded: boolean;
}

/** Credit packages on sale, their purchase through the provider's hosted checkout, and its verdicts. */
export interface PaymentsService {
  packages(): Promise<PackageRow[]>;
  /**
   * A pending payment of the owner for a package; with a `scope`, written in the scope's
   * transaction (see TransactionScope). 503 PAYMENTS_NOT_CONFIGURED without a provider.
   */
  startPurchase(
    owner: Principal,
    packageId: string,
    scope?: TransactionScope<StartedPurchase>,
  ): Promise<StartedPurchase>;
  /**
   * Applies the provider's verdict once its signature holds (see confirmPayment); a delivery whose
   * signature does not hold is refused with InvalidSignatureError and changes nothing.
   */
  receiveWebhook(delivery: WebhookDelivery): Promise<PaymentOutcome>;
}

const paymentsOff = () =>
  new ServiceError(
    'unavailable',
    'PAYMENTS_NOT_CONFIGURED',
    'As compras de créditos não estão ativas neste servidor (PAYMENT_CHECKOUT_URL e PAYMENT_WEBHOOK_SECRET por definir).',
  );

/** A webhook delivery whose X-Payment-Signature does not hold; `check` says why (for the log). */
export class InvalidSignatureError extends ServiceError {
  constructor(readonly check: Exclude<SignatureCheck, 'ok'>) {
    super('unauthenticated', 'INVALID_SIGNATURE', `Assinatura do webhook inválida (${check}).`);
  }
}

/** provider: the configured checkout and webhook secret; null when purchases are off. */
export function createPaymentsService(
  db: Database,
  clock: Clock,
  provider: Config['payments'],
): PaymentsService {
  return {
    packages: () => activePackages(db),
    async startPurchase(owner, packageId, scope) {
      if (!provider) throw paymentsOff();
      const { checkoutUrl } = provider;
      const purchase = (executor: Database) =>
        openPayment(executor, owner.accountId, packageId, checkoutUrl, clock.now());
      return scope ? scope.run(purchase) : purchase(db);
    },
    async receiveWebhook(delivery) {
      if (!provider) throw paymentsOff();
      const check = verifyWebhook(provider.webhookSecret, delivery.rawBody, delivery.signature, clock.now());
      if (check !== 'ok') throw new InvalidSignatureError(check);
      return confirmPayment(db, delivery.payment, delivery.succeeded, clock.now());
    },
  };
}

function activePackages(db: Database): Promise<PackageRow[]> {
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
async function openPayment(
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
async function confirmPayment(
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
