import { route, type AnyRoute, type RouteResponse } from '../http/route.js';
import {
  CHECKOUT_RETURN_PATH,
  InvalidSignatureError,
  type PaymentsService,
  type StartedPurchase,
} from './payments.js';
import type { ProviderName, WebhookDelivery } from './provider.js';
import type { SandboxVerdict } from './sandbox-provider.js';
import {
  PurchaseSchema,
  SandboxReferenceParams,
  StripeEventSchema,
  WebhookSchema,
} from './payments.schemas.js';
import { sandboxNotActive, type SandboxCheckoutService } from './sandbox-checkout.js';
import { sandboxCheckoutPage, sandboxCheckoutPolicy } from './sandbox-checkout.views.js';
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

const TRANSITIONS =
  'Transições: pending→paid; pending→failed/expired/cancelled, que um sucesso posterior ainda credita; paid é final ' +
  '(só um reembolso o muda: refunded). Idempotente: uma entrega repetida, ou várias em simultâneo, creditam uma única vez.';

const webhookResponses = {
  200: { description: 'Evento aplicado (ou já aplicado antes, ou ignorado)', schema: webhookResponseSchema },
};

/** Applies a delivery to a provider's webhook, noting in the log line what it did. */
async function receive(
  payments: PaymentsService,
  provider: ProviderName,
  delivery: WebhookDelivery,
  log: Record<string, unknown>,
): Promise<RouteResponse> {
  const outcome = await payments.receiveWebhook(provider, delivery).catch((error: unknown) => {
    if (error instanceof InvalidSignatureError) log.signature = error.check;
    throw error;
  });
  log.result = outcome.result;
  return { body: { success: true, result: outcome.result } };
}

const redirect = (location: string): RouteResponse => ({
  status: 303,
  headers: { Location: location, 'Cache-Control': 'no-store' },
  contentType: 'text/plain; charset=utf-8',
  body: `A redirecionar para ${location}`,
});

const redirectDoc = {
  303: {
    description: 'Para o painel (Location)',
    contentType: 'text/plain',
    schema: { type: 'string' },
    headers: { Location: { description: 'O painel, com ?checkout=&payment=', schema: { type: 'string' } } },
  },
};

/** A button of the sandbox checkout page: its verdict, delivered signed, then back to the dashboard. */
function sandboxVerdictRoute(
  sandbox: SandboxCheckoutService | null,
  action: 'pay' | 'cancel',
  verdict: SandboxVerdict,
  doc: { summary: string; description: string },
): AnyRoute {
  return route({
    method: 'post',
    path: `/payments/sandbox/checkout/:reference/${action}`,
    auth: 'public',
    ...doc,
    tags: ['Créditos'],
    params: SandboxReferenceParams,
    responses: redirectDoc,
    errors: [404],
    async handler({ params, log }) {
      if (!sandbox) throw sandboxNotActive();
      const { outcome, returnUrl } = await sandbox.verdict(params.reference, verdict);
      log.result = outcome.result;
      return redirect(returnUrl);
    },
  });
}

/**
 * The packages on sale, POST /data/credits/purchase (hosted checkout), the providers' signed
 * webhooks, and the sandbox's checkout page.
 */
export function paymentsRoutes({
  payments,
  sandboxCheckout,
}: {
  payments: PaymentsService;
  /** null unless the sandbox is the provider: its routes then answer 404 SANDBOX_NOT_ACTIVE */
  sandboxCheckout: SandboxCheckoutService | null;
}): AnyRoute[] {
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
        'Abre o checkout do fornecedor configurado (PAYMENT_PROVIDER: stripe, ou sandbox, a página de testes do próprio servidor) e regista o pagamento pendente. ' +
        'Os créditos são adicionados quando o fornecedor confirma o pagamento (webhook assinado), uma única vez por pagamento. ' +
        `No fim, o fornecedor devolve o comprador a PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=success|cancelled&payment=<reference>. ` +
        '503 PAYMENT_PROVIDER_UNAVAILABLE quando o fornecedor não responde (nenhum pagamento fica registado); 503 PAYMENTS_NOT_CONFIGURED sem fornecedor.',
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
      summary: 'Veredito do checkout de testes (sandbox), assinado com X-Payment-Signature',
      description:
        'Só com PAYMENT_PROVIDER=sandbox (senão 404 WEBHOOK_NOT_ACTIVE). A página do sandbox entrega aqui, pela mesma verificação, o veredito do comprador. ' +
        'Cabeçalho X-Payment-Signature: t=<segundos unix>,v1=<HMAC-SHA256 hex de "t.corpo" com o segredo do sandbox>; tolerância de 5 minutos; ' +
        'vários v1= são aceites se algum corresponder. ' +
        TRANSITIONS,
      tags: ['Créditos'],
      body: WebhookSchema,
      responses: webhookResponses,
      errors: [401, 404],
      async handler({ body, rawBody, header, log }) {
        log.payment = body.payment;
        return receive(payments, 'sandbox', { rawBody, signature: header('x-payment-signature') }, log);
      },
    }),
    route({
      method: 'post',
      path: '/payments/stripe/webhook',
      auth: 'public',
      rateLimit: 'webhook',
      // a Checkout Session or a Charge with its refunds: larger than our own requests
      bodyLimitKb: 512,
      summary: 'Eventos do Stripe (assinados com Stripe-Signature)',
      description:
        'Só com PAYMENT_PROVIDER=stripe (senão 404 WEBHOOK_NOT_ACTIVE). Verificados pelo SDK do Stripe sobre o corpo tal como chegou ' +
        '(STRIPE_WEBHOOK_SECRET, tolerância de 300 s). Aplicados: checkout.session.completed (pago; "awaiting" se o método for diferido), ' +
        'checkout.session.async_payment_succeeded / async_payment_failed, checkout.session.expired, charge.refunded ' +
        '(reembolso total: os créditos ainda por gastar são retirados, sem deixar o saldo negativo; parcial: só registado). ' +
        'Outros tipos: 200 "ignored". ' +
        TRANSITIONS,
      tags: ['Créditos'],
      body: StripeEventSchema,
      responses: webhookResponses,
      errors: [401, 404],
      async handler({ body, rawBody, header, log }) {
        log.event = body.type;
        return receive(payments, 'stripe', { rawBody, signature: header('stripe-signature') }, log);
      },
    }),
    route({
      method: 'get',
      path: '/payments/sandbox/checkout/:reference',
      auth: 'public',
      summary: 'Página do checkout de testes (sandbox): pacote, preço, Pagar e Cancelar',
      description:
        'Só com PAYMENT_PROVIDER=sandbox (senão 404 SANDBOX_NOT_ACTIVE). HTML sem scripts nem recursos externos; ' +
        'os botões são formulários POST para …/pay e …/cancel.',
      tags: ['Créditos'],
      params: SandboxReferenceParams,
      responses: {
        200: { description: 'A página (HTML)', contentType: 'text/html', schema: { type: 'string' } },
      },
      errors: [404],
      async handler({ params }) {
        if (!sandboxCheckout) throw sandboxNotActive();
        const checkout = await sandboxCheckout.checkout(params.reference);
        return {
          contentType: 'text/html; charset=utf-8',
          headers: {
            'Content-Security-Policy': sandboxCheckoutPolicy(checkout.successUrl),
            'Cache-Control': 'no-store',
          },
          body: sandboxCheckoutPage(checkout),
        };
      },
    }),
    sandboxVerdictRoute(sandboxCheckout, 'pay', 'payment.succeeded', {
      summary: 'Checkout de testes: pagar (credita uma única vez) e voltar ao painel',
      description:
        'Entrega um webhook assinado payment.succeeded pela mesma verificação de POST /payments/webhook; depois 303 para ' +
        `PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=success&payment=<reference>. Pagar de novo não credita outra vez.`,
    }),
    sandboxVerdictRoute(sandboxCheckout, 'cancel', 'payment.cancelled', {
      summary: 'Checkout de testes: cancelar (o pagamento fica cancelled) e voltar ao painel',
      description:
        `Entrega um webhook assinado payment.cancelled; depois 303 para PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=cancelled&payment=<reference> ` +
        '(success, se o pagamento já estava pago).',
    }),
  ];
}
