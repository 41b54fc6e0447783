import { Type, type Static } from '@sinclair/typebox';

/** Body of POST /data/credits/purchase. */
export const PurchaseSchema = Type.Object(
  {
    package_id: Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'The package’s id, from GET /data/credits/packages.',
    }),
  },
  { additionalProperties: false, description: 'The package to buy.' },
);
export type Purchase = Static<typeof PurchaseSchema>;

/** Body of POST /payments/webhook: the sandbox's verdict (other fields it sends are ignored). */
export const WebhookSchema = Type.Object(
  {
    event: Type.Unsafe<'payment.succeeded' | 'payment.failed' | 'payment.cancelled'>({
      type: 'string',
      enum: ['payment.succeeded', 'payment.failed', 'payment.cancelled'],
      description: 'The buyer’s verdict. Closed list.',
    }),
    payment: Type.String({ minLength: 1, maxLength: 100, description: 'The payment’s reference (`pay_…`).' }),
  },
  { description: 'The sandbox checkout’s verdict (other fields it sends are ignored).' },
);
export type Webhook = Static<typeof WebhookSchema>;

/** Body of POST /payments/stripe/webhook: a Stripe event (read in full once its signature holds). */
export const StripeEventSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255 }),
    type: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'The event’s type (checkout.session.completed…).',
    }),
    data: Type.Object({}, { description: 'The event’s object, read once the signature holds.' }),
  },
  { description: 'A Stripe event, as Stripe sends it.' },
);

/** The payment of a sandbox checkout page. */
export const SandboxReferenceParams = Type.Object({
  reference: Type.String({ pattern: '^pay_[0-9A-Za-z]{1,64}$', description: 'The payment’s reference.' }),
});
