import { sql, type Transaction } from 'kysely';
import { randomBase62 } from '../accounts/credentials.js';
import type { Principal } from '../accounts/principal.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { DB, PaymentStatus } from '../db/schema.js';
import type { TransactionScope } from '../db/transaction-scope.js';
import { notFound, ServiceError } from '../errors.js';
import type { PaymentEvent, PaymentProvider, ProviderName, WebhookDelivery } from './provider.js';
import { SandboxProvider, type SandboxVerdict } from './sandbox-provider.js';

export { InvalidSignatureError } from './provider.js';

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

/** A sandbox payment as its checkout page shows it. */
export interface SandboxCheckout {
  reference: string;
  package: PackageRow;
  status: PaymentStatus;
  /** the dashboard address a paid checkout returns to */
  successUrl: string;
}

/** Credit packages on sale, their purchase through the provider's hosted checkout, and its verdicts. */
export interface PaymentsService {
  /** the provider purchases go through; null when they are off */
  readonly provider: ProviderName | null;
  packages(): Promise<PackageRow[]>;
  /**
   * A pending payment of the owner for a package, with the provider's checkout opened for it; with
   * a `scope`, the payment is written in the scope's transaction (see TransactionScope). The
   * provider is asked first: when it does not answer (503 PAYMENT_PROVIDER_UNAVAILABLE) no payment
   * is recorded. 503 PAYMENTS_NOT_CONFIGURED without a provider.
   */
  startPurchase(
    owner: Principal,
    packageId: string,
    scope?: TransactionScope<StartedPurchase>,
  ): Promise<StartedPurchase>;
  /**
   * Applies a delivery to the named provider's webhook once its signature holds (see applyEvent); a
   * delivery whose signature does not hold is refused with InvalidSignatureError and changes
   * nothing. 404 WEBHOOK_NOT_ACTIVE when that provider is not the one configured.
   */
  receiveWebhook(provider: ProviderName, delivery: WebhookDelivery): Promise<PaymentOutcome>;
  /** A sandbox payment for its checkout page; 404 when unknown or the sandbox is not in use. */
  sandboxCheckout(reference: string): Promise<SandboxCheckout>;
  /**
   * The sandbox buyer's verdict (paid, or cancelled), delivered as a signed webhook through the same
   * verification as any delivery; returns the outcome and where to send the buyer back to.
   */
  sandboxVerdict(
    reference: string,
    verdict: SandboxVerdict,
  ): Promise<{ outcome: PaymentOutcome; returnUrl: string }>;
}

/**
 * The dashboard's page a buyer comes back to from the checkout (web/src/main.tsx: its credits
 * page). Written here only: the route descriptions use it, and a test holds .env.example and the
 * docs to it.
 */
export const CHECKOUT_RETURN_PATH = '/dashboard/credits';

/**
 * Where the provider sends the buyer back: the dashboard, with the payment's reference and how the
 * checkout ended (`checkout=success|cancelled`), for it to show the result.
 */
export function returnUrls(publicBaseUrl: string, reference: string) {
  const back = (checkout: string) =>
    `${publicBaseUrl}${CHECKOUT_RETURN_PATH}?checkout=${checkout}&payment=${encodeURIComponent(reference)}`;
  return { successUrl: back('success'), cancelUrl: back('cancelled') };
}

const paymentsOff = () =>
  new ServiceError(
    'unavailable',
    'PAYMENTS_NOT_CONFIGURED',
    'As compras de créditos não estão ativas neste servidor (PAYMENT_PROVIDER por definir: stripe ou sandbox).',
  );

const webhookNotActive = (name: ProviderName) =>
  notFound(
    `O fornecedor de pagamentos ${name} não está ativo neste servidor; nada foi alterado.`,
    'WEBHOOK_NOT_ACTIVE',
  );

/** provider: the configured one (services.ts); null when purchases are off. */
export function createPaymentsService(
  db: Database,
  clock: Clock,
  provider: PaymentProvider | null,
  publicBaseUrl: string,
): PaymentsService {
  const sandbox = () => {
    if (!(provider instanceof SandboxProvider)) {
      throw notFound('O checkout de testes (sandbox) não está ativo neste servidor.', 'SANDBOX_NOT_ACTIVE');
    }
    return provider;
  };
  const service: PaymentsService = {
    provider: provider?.name ?? null,
    packages: () => activePackages(db),
    async startPurchase(owner, packageId, scope) {
      if (!provider) throw paymentsOff();
      const chosen = await findPackage(db, packageId);
      const reference = `pay_${randomBase62(24)}`;
      // Asked before anything is written: a provider that does not answer leaves no payment behind.
      const checkout = await provider.startCheckout({
        reference,
        package: chosen,
        ...returnUrls(publicBaseUrl, reference),
      });
      const record = async (executor: Database): Promise<StartedPurchase> => {
        const row = await executor
          .insertInto('payments')
          .values({
            account_id: owner.accountId,
            package_id: chosen.id,
            provider: provider.name,
            provider_ref: reference,
            provider_session_id: checkout.sessionId,
            credits: chosen.credits,
            amount_eur: chosen.price_eur,
            checkout_url: checkout.url,
            created_at: clock.now(),
          })
          .returning(['id', 'created_at'])
          .executeTakeFirstOrThrow();
        return {
          paymentId: row.id,
          reference,
          package: chosen,
          checkoutUrl: checkout.url,
          createdAt: row.created_at,
        };
      };
      return scope ? scope.run(record) : record(db);
    },
    async receiveWebhook(name, delivery) {
      if (!provider || provider.name !== name) throw webhookNotActive(name);
      const now = clock.now();
      return applyEvent(db, provider.name, provider.readWebhook(delivery, now), now);
    },
    async sandboxCheckout(reference) {
      sandbox();
      const row = await db
        .selectFrom('payments')
        .innerJoin('credit_packages', 'credit_packages.id', 'payments.package_id')
        .select([
          'payments.status',
          'credit_packages.id',
          'credit_packages.name',
          'payments.credits',
          'payments.amount_eur as price_eur',
        ])
        .where('payments.provider', '=', 'sandbox')
        .where('payments.provider_ref', '=', reference)
        .executeTakeFirst();
      if (!row) throw notFound(`Pagamento desconhecido: ${reference}.`, 'PAYMENT_NOT_FOUND');
      const { status, ...pkg } = row;
      return { reference, package: pkg, status, successUrl: returnUrls(publicBaseUrl, reference).successUrl };
    },
    async sandboxVerdict(reference, verdict) {
      const delivery = sandbox().sign(verdict, reference, clock.now());
      const outcome = await service.receiveWebhook('sandbox', delivery);
      const urls = returnUrls(publicBaseUrl, reference);
      const paid = outcome.result === 'credited' || outcome.result === 'already_paid';
      return { outcome, returnUrl: paid ? urls.successUrl : urls.cancelUrl };
    },
  };
  return service;
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

async function findPackage(db: Database, packageId: string): Promise<PackageRow> {
  const packages = await activePackages(db);
  const chosen = packages.find((p) => p.id === packageId);
  if (!chosen) {
    throw notFound(
      `Pacote de créditos desconhecido: ${packageId}. Disponíveis: ${packages.map((p) => p.id).join(', ')}.`,
      'PACKAGE_NOT_FOUND',
    );
  }
  return chosen;
}

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

type Trx = Transaction<DB>;

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
async function applyEvent(
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

/**
 * A refund. The money went back, so the credits it bought go back too, but only those still held:
 * a balance never goes below zero, and credits already spent on searches stay spent (what could
 * not be taken back is the difference between `credits` and `credits_reversed`, on the payment
 * row, for a person to settle). A partial refund is recorded (`refunded_eur`) and takes nothing
 * back: how many credits a part of the price is worth is a decision for a person, not for a
 * webhook. A refund of a payment never credited is recorded and takes nothing.
 */
async function applyRefund(
  trx: Trx,
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
  // the payment's row first, then the account's: the order every writer of both keeps
  const account = await trx
    .selectFrom('accounts')
    .select('credits')
    .where('id', '=', payment.account_id)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  const taken = Math.min(payment.credits, account.credits);
  if (taken > 0) {
    await trx
      .updateTable('accounts')
      .set({ credits: account.credits - taken, updated_at: now })
      .where('id', '=', payment.account_id)
      .execute();
    await trx
      .insertInto('credit_ledger')
      .values({
        account_id: payment.account_id,
        kind: 'adjustment',
        delta: -taken,
        balance_after: account.credits - taken,
        payment_id: payment.id,
        created_at: now,
      })
      .execute();
  }
  await trx
    .updateTable('payments')
    .set({ ...record, status: 'refunded', credits_reversed: taken })
    .where('id', '=', payment.id)
    .execute();
  return { result: 'refunded', creditsReversed: taken };
}
