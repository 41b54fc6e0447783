import Stripe from 'stripe';
import type { Logger } from '../logger.js';
import {
  InvalidSignatureError,
  providerUnavailable,
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProvider,
  type WebhookDelivery,
} from './provider.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API elsewhere (a stand-in in tests) */
  apiBase: { protocol: 'http' | 'https'; host: string; port: number } | null;
}

/** The metadata key our payment reference travels in (session and PaymentIntent). */
export const REFERENCE_KEY = 'payment_reference';

const cents = (eur: string) => Math.round(Number(eur) * 100);

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Stripe Checkout through the official SDK: a Checkout Session in payment mode per payment, and
 * the events of its webhook, verified by the SDK (Stripe-Signature over the raw body, the SDK's
 * tolerance of 300 seconds).
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly logger: Logger,
  ) {
    this.stripe = new Stripe(settings.secretKey, {
      ...(settings.apiBase ?? {}),
      maxNetworkRetries: 1,
      timeout: 15_000,
      telemetry: false,
    });
  }

  async startCheckout(request: CheckoutRequest): Promise<Checkout> {
    const { reference, package: pkg } = request;
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'eur',
                unit_amount: cents(pkg.price_eur),
                product_data: { name: `${pkg.name}: ${pkg.credits} créditos` },
              },
            },
          ],
          client_reference_id: reference,
          metadata: { [REFERENCE_KEY]: reference, package_id: pkg.id },
          payment_intent_data: { metadata: { [REFERENCE_KEY]: reference } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        // a retry of the same payment opens the same session
        { idempotencyKey: `checkout-${reference}` },
      );
      if (!session.url) throw new Error(`Checkout Session ${session.id} sem url`);
      return { url: session.url, sessionId: session.id };
    } catch (error) {
      this.logger.warn({ err: error, payment: reference }, 'Stripe: Checkout Session not created');
      throw providerUnavailable('Stripe');
    }
  }

  readWebhook(delivery: WebhookDelivery, now: Date): PaymentEvent {
    if (!delivery.signature) throw new InvalidSignatureError('missing');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        delivery.rawBody,
        delivery.signature,
        this.settings.webhookSecret,
        undefined,
        undefined,
        now.getTime(),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new InvalidSignatureError(/tolerance/i.test(message) ? 'stale' : 'mismatch');
    }
    return readEvent(event);
  }
}

/** A verified Stripe event in our terms; the types we do not act on are `ignored`. */
function readEvent(event: Stripe.Event): PaymentEvent {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const reference = session.metadata?.[REFERENCE_KEY] ?? session.client_reference_id;
      if (!reference) return { kind: 'ignored', type: event.type };
      const providerPaymentId = idOf(session.payment_intent);
      if (event.type === 'checkout.session.expired') return { kind: 'expired', reference };
      if (event.type === 'checkout.session.async_payment_failed') return { kind: 'failed', reference };
      // completed with a delayed method (SEPA debit…): paid later, by async_payment_succeeded
      if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') {
        return { kind: 'awaiting', reference };
      }
      return { kind: 'succeeded', reference, providerPaymentId };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const providerPaymentId = idOf(charge.payment_intent);
      if (!providerPaymentId) return { kind: 'ignored', type: event.type };
      return {
        kind: 'refunded',
        providerPaymentId,
        refundedCents: charge.amount_refunded,
        amountCents: charge.amount,
      };
    }
    default:
      return { kind: 'ignored', type: event.type };
  }
}
