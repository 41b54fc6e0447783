import { Type, type Static } from '@sinclair/typebox';

/** Body of POST /data/credits/purchase. */
export const PurchaseSchema = Type.Object(
  { package_id: Type.String({ minLength: 1, maxLength: 50 }) },
  { additionalProperties: false },
);
export type Purchase = Static<typeof PurchaseSchema>;

/** Body of POST /payments/webhook: the sandbox's verdict (other fields it sends are ignored). */
export const WebhookSchema = Type.Object({
  event: Type.Unsafe<'payment.succeeded' | 'payment.failed' | 'payment.cancelled'>({
    enum: ['payment.succeeded', 'payment.failed', 'payment.cancelled'],
  }),
  payment: Type.String({ minLength: 1, maxLength: 100, description: 'Referência do pagamento (pay_…)' }),
});
export type Webhook = Static<typeof WebhookSchema>;

/** Body of POST /payments/stripe/webhook: a Stripe event (read in full once its signature holds). */
export const StripeEventSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  type: Type.String({ minLength: 1, maxLength: 255 }),
  data: Type.Object({}),
});

/** The payment of a sandbox checkout page. */
export const SandboxReferenceParams = Type.Object({
  reference: Type.String({ pattern: '^pay_[0-9A-Za-z]{1,64}$' }),
});
