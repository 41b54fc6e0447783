import { route, type AnyRoute, type RouteResponse } from '../http/route.js';
import { InvalidSignatureError, type PaymentsService, type StartedPurchase } from './payments.js';
import { PurchaseSchema, WebhookSchema } from './payments.schemas.js';
import {
  packagesSchema,
  packageView,
  purchaseSchema,
  purchaseView,
  webhookResponseSchema,
} from './payments.views.js';

/** A purchase's answer; also what an Idempotency-Key keeps of it. */
const purchaseResponse = (started: StartedPurchase): RouteResponse => ({
  status: 201,
  body: purchaseView(started),
});

/** The packages on sale, POST /data/credits/purchase (hosted checkout) and the provider's signed webhook. */
export function paymentsRoutes({ payments }: { payments: PaymentsService }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/data/credits/packages',
      auth: 'public',
      summary: 'Pacotes de créditos à venda',
      tags: ['Créditos'],
      cacheSeconds: 300,
      responses: { 200: { description: 'Pacotes', schema: packagesSchema } },
      handler: async () => {
        const rows = await payments.packages();
        return { body: { success: true, packages: rows.map(packageView) } };
      },
    }),
    route({
      method: 'post',
      path: '/data/credits/purchase',
      auth: 'bearer',
      summary: 'Compra de créditos: devolve o endereço do checkout do fornecedor de pagamentos',
      description:
        'Os créditos são adicionados quando o fornecedor confirma o pagamento (webhook assinado), uma única vez por pagamento.',
      tags: ['Créditos'],
      body: PurchaseSchema,
      idempotent: true,
      responses: { 201: { description: 'Pagamento pendente criado', schema: purchaseSchema } },
      errors: [404, 503],
      async handler({ principal, body, idempotency }) {
        // With an Idempotency-Key the payment row and the stored response commit together.
        return purchaseResponse(
          await payments.startPurchase(principal, body.package_id, idempotency?.alongside(purchaseResponse)),
        );
      },
    }),
    route({
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
      body: WebhookSchema,
      responses: {
        200: { description: 'Veredito aplicado (ou já aplicado antes)', schema: webhookResponseSchema },
      },
      errors: [401, 404, 503],
      async handler({ body, rawBody, header, log }) {
        const outcome = await payments
          .receiveWebhook({
            rawBody,
            signature: header('x-payment-signature'),
            payment: body.payment,
            succeeded: body.event === 'payment.succeeded',
          })
          .catch((error: unknown) => {
            if (error instanceof InvalidSignatureError) log.signature = error.check;
            throw error;
          });
        log.payment = body.payment;
        log.result = outcome.result;
        return { body: { success: true, result: outcome.result } };
      },
    }),
  ];
}
