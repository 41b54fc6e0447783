import { confirmPayment, startPurchase, type StartedPurchase } from '../../credits/payments.js';
import type { Database } from '../../db/database.js';
import { verifyWebhook } from '../../credits/webhook-signature.js';
import type { Services } from '../../services.js';
import { ServiceError, unauthenticated } from '../../errors.js';
import { legacyRoute, type AnyRoute, type RouteResponse } from '../route.js';
import { packageSchema } from './credits.js';

const paymentsOff = () =>
  new ServiceError(
    'unavailable',
    'PAYMENTS_NOT_CONFIGURED',
    'As compras de créditos não estão ativas neste servidor (PAYMENT_CHECKOUT_URL e PAYMENT_WEBHOOK_SECRET por definir).',
  );

const purchaseSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'payment_id', 'status', 'package', 'checkout_url', 'created_at'],
  properties: {
    success: { const: true },
    payment_id: { type: 'string' },
    status: { const: 'pending' },
    package: packageSchema,
    checkout_url: { type: 'string', description: 'Página de pagamento do fornecedor; abra-a no browser' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const webhookBody = {
  type: 'object',
  required: ['event', 'payment'],
  properties: {
    event: { enum: ['payment.succeeded', 'payment.failed'] },
    payment: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'Referência recebida no checkout_url',
    },
  },
};

const webhookResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'result'],
  properties: {
    success: { const: true },
    result: { enum: ['credited', 'already_paid', 'failed', 'not_pending'] },
  },
};

const purchaseResponse = (started: StartedPurchase): RouteResponse => ({
  status: 201,
  body: {
    success: true,
    payment_id: started.paymentId,
    status: 'pending',
    package: { ...started.package, price_eur: Number(started.package.price_eur) },
    checkout_url: started.checkoutUrl,
    created_at: started.createdAt.toISOString(),
  },
});

/** POST /data/credits/purchase (hosted checkout) and the provider's signed webhook. */
export function paymentsRoutes(services: Services): AnyRoute[] {
  const { db, clock, config } = services;
  return [
    legacyRoute<{ package_id: string }, unknown, unknown, 'bearer'>({
      method: 'post',
      path: '/data/credits/purchase',
      auth: 'bearer',
      summary: 'Compra de créditos: devolve o endereço do checkout do fornecedor de pagamentos',
      description:
        'Os créditos são adicionados quando o fornecedor confirma o pagamento (webhook assinado), uma única vez por pagamento.',
      tags: ['Créditos'],
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['package_id'],
        properties: { package_id: { type: 'string', minLength: 1, maxLength: 50 } },
      },
      idempotent: true,
      responses: { 201: { description: 'Pagamento pendente criado', schema: purchaseSchema } },
      errors: [404, 503],
      async handler({ principal, body, idempotency }) {
        if (!config.payments) throw paymentsOff();
        const { checkoutUrl } = config.payments;
        const purchase = (executor: Database) =>
          startPurchase(executor, principal.accountId, body.package_id, checkoutUrl, clock.now());
        // With an Idempotency-Key the payment row and the stored response commit together.
        return purchaseResponse(
          idempotency ? await idempotency.alongside(purchaseResponse).run(purchase) : await purchase(db),
        );
      },
    }),
    legacyRoute<
      { event: 'payment.succeeded' | 'payment.failed'; payment: string },
      unknown,
      unknown,
      'public'
    >({
      method: 'post',
      path: '/payments/webhook',
      auth: 'public',
      // The provider retries deliveries: a per-IP limit of its own, generous, apart from the public one.
      rateLimit: 'webhook',
      summary: 'Confirmação do fornecedor de pagamentos (assinada com X-Payment-Signature)',
      description:
        'Cabeçalho X-Payment-Signature: t=<segundos unix>,v1=<HMAC-SHA256 hex de "t.corpo" com PAYMENT_WEBHOOK_SECRET>; tolerância de 5 minutos; ' +
        'vários v1= são aceites se algum corresponder. Transições: pending→failed, pending→paid, failed→paid (a última palavra do fornecedor vale); ' +
        'paid é final. Idempotente: uma entrega repetida não credita de novo.',
      tags: ['Créditos'],
      body: webhookBody,
      responses: {
        200: { description: 'Veredito aplicado (ou já aplicado antes)', schema: webhookResponse },
      },
      errors: [401, 404, 503],
      async handler({ body, rawBody, header, log }) {
        if (!config.payments) throw paymentsOff();
        const check = verifyWebhook(
          config.payments.webhookSecret,
          rawBody,
          header('x-payment-signature'),
          clock.now(),
        );
        if (check !== 'ok') {
          log.signature = check;
          throw unauthenticated(`Assinatura do webhook inválida (${check}).`, 'INVALID_SIGNATURE');
        }
        const outcome = await confirmPayment(
          db,
          body.payment,
          body.event === 'payment.succeeded',
          clock.now(),
        );
        log.payment = body.payment;
        log.result = outcome.result;
        return { body: { success: true, result: outcome.result } };
      },
    }),
  ];
}
