import type { PackageRow } from './packages.js';
import { PAYMENT_RESULTS } from './payment-transitions.js';
import type { StartedPurchase } from './payments.js';

/** A credit package as the API shows it (also inside a purchase). */
export const packageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'credits', 'price_eur'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    credits: { type: 'integer', minimum: 1 },
    price_eur: { type: 'number' },
  },
};

export const packageView = (p: PackageRow) => ({ ...p, price_eur: Number(p.price_eur) });

export const packagesSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'packages'],
  properties: { success: { const: true }, packages: { type: 'array', items: packageSchema } },
};

export const purchaseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'payment_id', 'reference', 'status', 'package', 'checkout_url', 'created_at'],
  properties: {
    success: { const: true },
    payment_id: { type: 'string' },
    reference: {
      type: 'string',
      description:
        'Referência do pagamento (pay_…): a que o painel recebe de volta (?payment=) depois do checkout',
    },
    status: { const: 'pending' },
    package: packageSchema,
    checkout_url: { type: 'string', description: 'Página de pagamento do fornecedor; abra-a no browser' },
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
  properties: {
    success: { const: true },
    result: { enum: [...PAYMENT_RESULTS] },
  },
};
