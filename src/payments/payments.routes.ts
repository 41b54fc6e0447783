import { route, type AnyRoute, type ApiTag, type RouteResponse } from '../http/route.js';
import { CREDITS_TAG } from '../credits/credits.routes.js';
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
  paymentSchemaNames,
  purchaseSchema,
  purchaseView,
  webhookResponseSchema,
} from './payments.views.js';

const TAG: ApiTag = {
  name: 'Payments',
  description:
    'For payment providers and the buyer’s browser, not for integrations: the providers’ signed webhooks, which credit a purchase once, and the sandbox’s test checkout page.',
};

const schemas = {
  ...paymentSchemaNames,
  PurchaseRequest: PurchaseSchema,
  SandboxWebhookEvent: WebhookSchema,
  StripeEvent: StripeEventSchema,
};

/** A purchase's answer; also what an Idempotency-Key keeps of it. */
const purchaseResponse = (started: StartedPurchase): RouteResponse => ({
  status: 201,
  body: purchaseView(started),
});

const TRANSITIONS =
  'Transitions: pending → paid; pending → failed, expired or cancelled, which a later success still credits; paid is final ' +
  '(only a refund changes it: refunded). Idempotent: a delivery repeated, or several at once, credit once.';

const webhookResponses = {
  200: { description: 'The event applied (or applied before, or ignored)', schema: webhookResponseSchema },
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
    description: 'To the dashboard (Location)',
    contentType: 'text/plain',
    schema: { type: 'string' },
    headers: {
      Location: {
        description: 'The dashboard, with `?checkout=success|cancelled&payment=<reference>`.',
        required: true,
        schema: { type: 'string' },
      },
      'Cache-Control': { description: 'no-store', schema: { type: 'string', enum: ['no-store'] } },
    },
  },
};

/** A button of the sandbox checkout page: its verdict, delivered signed, then back to the dashboard. */
function sandboxVerdictRoute(
  sandbox: SandboxCheckoutService | null,
  action: 'pay' | 'cancel',
  verdict: SandboxVerdict,
  doc: { operationId: string; summary: string; description: string },
): AnyRoute {
  return route({
    method: 'post',
    path: `/payments/sandbox/checkout/:reference/${action}`,
    auth: 'public',
    ...doc,
    tags: [TAG],
    params: SandboxReferenceParams,
    responses: redirectDoc,
    errors: ['SANDBOX_NOT_ACTIVE', 'PAYMENT_NOT_FOUND'],
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
      operationId: 'listCreditPackages',
      summary: 'The credit packages on sale',
      description: 'Public. Buy one with `purchaseCredits`.',
      tags: [CREDITS_TAG],
      schemas,
      cacheSeconds: 300,
      responses: { 200: { description: 'The packages', schema: packagesSchema } },
      handler: async () => {
        const rows = await payments.packages();
        return { body: { success: true, packages: rows.map(packageView) } };
      },
    }),
    route({
      method: 'post',
      path: '/data/credits/purchase',
      auth: 'bearer',
      operationId: 'purchaseCredits',
      summary: 'Buy credits: the address of the provider’s checkout',
      description:
        'Opens a checkout with the server’s payment provider (Stripe, or the sandbox: the server’s own test page) and records the payment as pending. ' +
        'The credits are added when the provider confirms the payment (a signed webhook), once per payment. ' +
        `Then the provider sends the buyer back to PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=success|cancelled&payment=<reference>. ` +
        '503 `PAYMENT_PROVIDER_UNAVAILABLE` when the provider does not answer (no payment is recorded); 503 `PAYMENTS_NOT_CONFIGURED` on a server without purchases.',
      tags: [CREDITS_TAG],
      schemas,
      body: PurchaseSchema,
      idempotent: true,
      responses: { 201: { description: 'The pending payment', schema: purchaseSchema } },
      errors: ['PACKAGE_NOT_FOUND', 'PAYMENT_PROVIDER_UNAVAILABLE', 'PAYMENTS_NOT_CONFIGURED'],
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
      operationId: 'receiveSandboxWebhook',
      summary: 'The sandbox checkout’s verdict, signed with X-Payment-Signature',
      description:
        'Only with PAYMENT_PROVIDER=sandbox (404 `WEBHOOK_NOT_ACTIVE` otherwise). The sandbox’s page delivers the buyer’s verdict here, through the same check. ' +
        'Header X-Payment-Signature: `t=<Unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the sandbox’s secret>`; 5 minutes’ tolerance; ' +
        'several v1= are accepted when one matches. ' +
        TRANSITIONS,
      tags: [TAG],
      schemas,
      body: WebhookSchema,
      responses: webhookResponses,
      errors: ['INVALID_SIGNATURE', 'INVALID_WEBHOOK_EVENT', 'WEBHOOK_NOT_ACTIVE', 'PAYMENT_NOT_FOUND'],
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
      operationId: 'receiveStripeWebhook',
      summary: 'Stripe’s events, signed with Stripe-Signature',
      description:
        'Only with PAYMENT_PROVIDER=stripe (404 `WEBHOOK_NOT_ACTIVE` otherwise). Checked by Stripe’s SDK over the body as it arrived ' +
        '(STRIPE_WEBHOOK_SECRET, 300 s tolerance). Applied: checkout.session.completed (paid; `awaiting` when the method is delayed), ' +
        'checkout.session.async_payment_succeeded and async_payment_failed, checkout.session.expired, charge.refunded ' +
        '(a full refund takes back the credits still held, never below zero; a partial one is recorded only). ' +
        'Other types: 200 `ignored`. ' +
        TRANSITIONS,
      tags: [TAG],
      schemas,
      body: StripeEventSchema,
      responses: webhookResponses,
      errors: ['INVALID_SIGNATURE', 'INVALID_WEBHOOK_EVENT', 'WEBHOOK_NOT_ACTIVE'],
      async handler({ body, rawBody, header, log }) {
        log.event = body.type;
        return receive(payments, 'stripe', { rawBody, signature: header('stripe-signature') }, log);
      },
    }),
    route({
      method: 'get',
      path: '/payments/sandbox/checkout/:reference',
      auth: 'public',
      operationId: 'getSandboxCheckoutPage',
      summary: 'The sandbox’s test checkout page: package, price, Pay and Cancel',
      description:
        'Only with PAYMENT_PROVIDER=sandbox (404 `SANDBOX_NOT_ACTIVE` otherwise). HTML in Portuguese without scripts or outside resources; ' +
        'its buttons are form POSTs to …/pay and …/cancel. No money moves.',
      tags: [TAG],
      params: SandboxReferenceParams,
      responses: {
        200: {
          description: 'The page (HTML)',
          contentType: 'text/html',
          schema: { type: 'string' },
          headers: {
            'Content-Security-Policy': {
              description: 'The page’s own policy: its styles, and its forms posting to this server only.',
              required: true,
              schema: { type: 'string' },
            },
            'Cache-Control': { description: 'no-store', schema: { type: 'string', enum: ['no-store'] } },
          },
        },
      },
      errors: ['SANDBOX_NOT_ACTIVE', 'PAYMENT_NOT_FOUND'],
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
      operationId: 'paySandboxCheckout',
      summary: 'Sandbox checkout: pay (credits once) and go back to the dashboard',
      description:
        'Delivers a signed `payment.succeeded` webhook through the same check as POST /payments/webhook; then 303 to ' +
        `PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=success&payment=<reference>. Paying again credits nothing more.`,
    }),
    sandboxVerdictRoute(sandboxCheckout, 'cancel', 'payment.cancelled', {
      operationId: 'cancelSandboxCheckout',
      summary: 'Sandbox checkout: cancel (the payment becomes cancelled) and go back to the dashboard',
      description:
        `Delivers a signed \`payment.cancelled\` webhook; then 303 to PUBLIC_BASE_URL${CHECKOUT_RETURN_PATH}?checkout=cancelled&payment=<reference> ` +
        '(success, when the payment was already paid).',
    }),
  ];
}
