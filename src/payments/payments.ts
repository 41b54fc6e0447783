import { randomBase62 } from '../crypto-text.js';
import type { Principal } from '../principal.js';
import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { TransactionScope } from '../db/transaction-scope.js';
import { notFound, ServiceError } from '../errors.js';
import { activePackages, findPackage, type PackageRow } from './packages.js';
import { applyEvent, type PaymentOutcome } from './payment-transitions.js';
import type { PaymentProvider, ProviderName, WebhookDelivery } from './provider.js';

export { InvalidSignatureError } from './provider.js';

export interface StartedPurchase {
  paymentId: string;
  reference: string;
  package: PackageRow;
  checkoutUrl: string;
  createdAt: Date;
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
  return {
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
  };
}
