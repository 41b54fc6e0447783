import type { Clock } from '../clock.js';
import type { Database } from '../db/database.js';
import type { PaymentStatus } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { PackageRow } from './packages.js';
import type { PaymentOutcome } from './payment-transitions.js';
import { returnUrls, type PaymentsService } from './payments.js';
import type { SandboxProvider, SandboxVerdict } from './sandbox-provider.js';

/** A sandbox payment as its checkout page shows it. */
export interface SandboxCheckout {
  reference: string;
  package: PackageRow;
  status: PaymentStatus;
  /** the dashboard address a paid checkout returns to */
  successUrl: string;
}

/** The sandbox provider's checkout page and its buttons (only where the sandbox is the provider). */
export interface SandboxCheckoutService {
  /** A sandbox payment for its checkout page; 404 when unknown. */
  checkout(reference: string): Promise<SandboxCheckout>;
  /**
   * The buyer's verdict (paid, or cancelled), delivered as a signed webhook through the same
   * verification as any delivery; returns the outcome and where to send the buyer back to.
   */
  verdict(
    reference: string,
    verdict: SandboxVerdict,
  ): Promise<{ outcome: PaymentOutcome; returnUrl: string }>;
}

export const sandboxNotActive = () =>
  notFound('O checkout de testes (sandbox) não está ativo neste servidor.', 'SANDBOX_NOT_ACTIVE');

export function createSandboxCheckout(
  db: Database,
  clock: Clock,
  sandbox: SandboxProvider,
  payments: PaymentsService,
  publicBaseUrl: string,
): SandboxCheckoutService {
  return {
    async checkout(reference) {
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
    async verdict(reference, verdict) {
      const outcome = await payments.receiveWebhook('sandbox', sandbox.sign(verdict, reference, clock.now()));
      const urls = returnUrls(publicBaseUrl, reference);
      const paid = outcome.result === 'credited' || outcome.result === 'already_paid';
      return { outcome, returnUrl: paid ? urls.successUrl : urls.cancelUrl };
    },
  };
}
