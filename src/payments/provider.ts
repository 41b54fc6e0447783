import { ServiceError } from '../errors.js';
import type { PackageRow } from './packages.js';

/** The payment providers a server can be configured with (config.ts, PAYMENT_PROVIDER). */
export type ProviderName = 'sandbox' | 'stripe';

/** What a provider needs to open its hosted checkout for one of our payments. */
export interface CheckoutRequest {
  /** our payment's reference (pay_…): what the provider's webhook names it by */
  reference: string;
  package: PackageRow;
  /** where the provider sends the buyer back after paying, and after giving up */
  successUrl: string;
  cancelUrl: string;
}

export interface Checkout {
  /** the page the buyer is sent to */
  url: string;
  /** the provider's id for the checkout (Stripe's cs_…); null when the reference is its id */
  sessionId: string | null;
}

/**
 * A verified webhook delivery, in our terms. The payment is named by our reference, or (a refund)
 * by the provider's payment id, which a success recorded.
 */
export type PaymentEvent =
  | {
      kind: 'succeeded' | 'failed' | 'expired' | 'cancelled';
      reference: string;
      /** the provider's payment (Stripe's PaymentIntent), kept for its later refunds */
      providerPaymentId?: string | null;
    }
  /** the checkout completed but the money is still on its way (Stripe's delayed methods) */
  | { kind: 'awaiting'; reference: string }
  | {
      kind: 'refunded';
      providerPaymentId: string;
      /** cumulative amount given back, and the amount charged, in cents */
      refundedCents: number;
      amountCents: number;
    }
  /** an event we do not act on (another type, or a checkout that is not ours) */
  | { kind: 'ignored'; type: string };

/** A webhook delivery as received: the signature covers the body exactly as it arrived. */
export interface WebhookDelivery {
  rawBody: string;
  /** the provider's signature header (X-Payment-Signature, Stripe-Signature) */
  signature: string | undefined;
}

/**
 * The port of a hosted-checkout provider: open a checkout for a payment, and turn a signed webhook
 * delivery into a PaymentEvent. The payment's transitions (credits granted once, refunds) are the
 * service's (payments.ts), the same whichever provider speaks.
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** ServiceError 503 PAYMENT_PROVIDER_UNAVAILABLE when the provider does not answer */
  startCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** InvalidSignatureError when the signature does not hold; nothing is read before it does */
  readWebhook(delivery: WebhookDelivery, now: Date): PaymentEvent;
}

/** A webhook delivery whose signature does not hold; `check` says why (for the log). */
export class InvalidSignatureError extends ServiceError {
  constructor(readonly check: string) {
    super('INVALID_SIGNATURE', `Assinatura do webhook inválida (${check}).`);
  }
}

/** A delivery that is signed but whose body is not an event we can read. */
export const unreadableEvent = (why: string) =>
  new ServiceError('INVALID_WEBHOOK_EVENT', `Evento do webhook ilegível: ${why}.`);

export const providerUnavailable = (provider: string) =>
  new ServiceError(
    'PAYMENT_PROVIDER_UNAVAILABLE',
    `O fornecedor de pagamentos (${provider}) não respondeu; nada foi cobrado. Tente de novo dentro de momentos.`,
    {},
    30,
  );
