import { randomBytes } from 'node:crypto';
import {
  InvalidSignatureError,
  unreadableEvent,
  type Checkout,
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProvider,
  type WebhookDelivery,
} from './provider.js';
import { signWebhook, verifyWebhook } from './webhook-signature.js';

/** What the sandbox checkout page reports: the buyer paid, or gave up. */
export type SandboxVerdict = 'payment.succeeded' | 'payment.cancelled';

const EVENTS: Record<string, 'succeeded' | 'failed' | 'cancelled'> = {
  'payment.succeeded': 'succeeded',
  'payment.failed': 'failed',
  'payment.cancelled': 'cancelled',
};

/**
 * The embedded provider, for a server without a real one: its checkout is a page the API serves
 * (GET /payments/sandbox/checkout/:reference), and its verdicts are webhook deliveries signed
 * (X-Payment-Signature, webhook-signature.ts) with a secret of its own, verified by the same code as
 * any delivery to POST /payments/webhook. No money moves: never a production setting.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';

  /** secret: fixed in tests; otherwise drawn at start (only this process signs its deliveries) */
  constructor(
    private readonly publicBaseUrl: string,
    private readonly secret: string = randomBytes(32).toString('base64url'),
  ) {}

  startCheckout(request: CheckoutRequest): Promise<Checkout> {
    const url = `${this.publicBaseUrl}/payments/sandbox/checkout/${encodeURIComponent(request.reference)}`;
    return Promise.resolve({ url, sessionId: null });
  }

  /** The delivery the sandbox's "provider side" sends when the buyer pays or cancels. */
  sign(verdict: SandboxVerdict, reference: string, now: Date): WebhookDelivery {
    const rawBody = JSON.stringify({ event: verdict, payment: reference });
    return { rawBody, signature: signWebhook(this.secret, rawBody, now) };
  }

  readWebhook(delivery: WebhookDelivery, now: Date): PaymentEvent {
    const check = verifyWebhook(this.secret, delivery.rawBody, delivery.signature, now);
    if (check !== 'ok') throw new InvalidSignatureError(check);
    const body = JSON.parse(delivery.rawBody) as { event?: unknown; payment?: unknown };
    const kind = typeof body.event === 'string' ? EVENTS[body.event] : undefined;
    if (!kind || typeof body.payment !== 'string') throw unreadableEvent('event ou payment em falta');
    return { kind, reference: body.payment };
  }
}
