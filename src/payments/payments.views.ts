import type { PackageRow } from './packages.js';
import { PAYMENT_RESULTS } from './payment-transitions.js';
import type { StartedPurchase } from './payments.js';

/** A credit package as the API shows it (also inside a purchase). */
export const packageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'credits', 'price_eur'],
  description: 'A package of credits on sale.',
  properties: {
    id: { type: 'string', description: 'What POST /data/credits/purchase takes: `starter`, `pro`…' },
    name: { type: 'string' },
    credits: { type: 'integer', minimum: 1 },
    price_eur: { type: 'number', description: 'Price in EUR, taxes included.' },
  },
};

export const packageView = (p: PackageRow) => ({ ...p, price_eur: Number(p.price_eur) });

export const packagesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'packages'],
  description: 'The packages on sale.',
  properties: { success: { const: true }, packages: { type: 'array', items: packageSchema } },
};

export const purchaseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'payment_id', 'reference', 'status', 'package', 'checkout_url', 'created_at'],
  description: 'A pending payment and where the buyer pays it.',
  properties: {
    success: { const: true },
    payment_id: { type: 'string' },
    reference: {
      type: 'string',
      description:
        'The payment’s reference (`pay_…`): the dashboard gets it back (`?payment=`) after the checkout.',
    },
    status: { const: 'pending', description: 'A new payment is pending until the provider confirms it.' },
    package: packageSchema,
    checkout_url: {
      type: 'string',
      description: 'The provider’s payment page: open it in the buyer’s browser.',
    },
    created_at: { type: 'string', format: 'date-time' },
  },
};

export const purchaseView = (started: StartedPurchase) => ({
  success: true,
  payment_id: started.paymentId,
  reference: started.reference,
  status: 'pending',
  package: packageView(started.package),
  checkout_url: started.checkoutUrl,
  created_at: started.createdAt.toISOString(),
});

export const webhookResponseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'result'],
  description: 'What the delivery did.',
  properties: {
    success: { const: true },
    result: {
      type: 'string',
      enum: [...PAYMENT_RESULTS],
      description:
        'What the delivery did to the payment. Open list: values may be added (a client must accept one it does not know).',
    },
  },
};

/** The payments' shapes by the names generated clients give them. */
export const paymentSchemaNames = {
  CreditPackage: packageSchema,
  CreditPackageListResult: packagesSchema,
  PurchaseResult: purchaseSchema,
  WebhookResult: webhookResponseSchema,
};
