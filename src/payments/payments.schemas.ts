import { Type, type Static } from '@sinclair/typebox';

/** Body of POST /data/credits/purchase. */
export const PurchaseSchema = Type.Object(
  { package_id: Type.String({ minLength: 1, maxLength: 50 }) },
  { additionalProperties: false },
);
export type Purchase = Static<typeof PurchaseSchema>;

/** Body of POST /payments/webhook: the provider's verdict (other fields it sends are ignored). */
export const WebhookSchema = Type.Object({
  event: Type.Unsafe<'payment.succeeded' | 'payment.failed'>({
    enum: ['payment.succeeded', 'payment.failed'],
  }),
  payment: Type.String({ minLength: 1, maxLength: 100, description: 'Referência recebida no checkout_url' }),
});
export type Webhook = Static<typeof WebhookSchema>;
