import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveCredits } from '../../src/credits/credit-movements.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { paymentLedger, PUBLIC_BASE } from '../helpers/payments-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { BalanceAnswer, PurchaseAnswer } from '../../web/src/api-types.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_tests_0123';
const stripe = new Stripe('sk_test_only_for_the_helpers');

interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/** A stand-in for Stripe's API: records each request and answers a Checkout Session. */
async function stripeStandIn(): Promise<{ server: Server; base: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text;
  };
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      const form = new URLSearchParams(text);
      requests.push({ method: req.method!, path: req.url!, authorization: req.headers.authorization, form });
      const id = `cs_test_${requests.length}`;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` });
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          mode: 'payment',
          status: 'open',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          client_reference_id: form.get('client_reference_id'),
          metadata: { payment_reference: form.get('metadata[payment_reference]') },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}`, requests };
}

const stripeEnv = (apiBase: string) => ({
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_the_api_key',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_BASE: apiBase,
  PUBLIC_BASE_URL: PUBLIC_BASE,
});

describe('credit purchases through Stripe Checkout', () => {
  let app: TestApp;
  let account: TestAccount;
  let standIn: Awaited<ReturnType<typeof stripeStandIn>>;

  beforeAll(async () => {
    standIn = await stripeStandIn();
    app = await startTestApp({ env: stripeEnv(standIn.base) });
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(async () => {
    await app?.close();
    standIn?.server.close();
  });

  const bearer = () => app.api.withBearer(account.bearer);
  const balance = async () => (await bearer().get<BalanceAnswer>('/data/credits/balance')).body.credits;
  const payment = (reference: string) =>
    app.services.db
      .selectFrom('payments')
      .select(['id', 'status', 'provider', 'provider_session_id', 'provider_payment_id', 'credits_reversed'])
      .where('provider_ref', '=', reference)
      .executeTakeFirstOrThrow();
  const ledger = (paymentId: string) => paymentLedger(app.services.db, paymentId);

  async function purchase(packageId = 'starter') {
    const res = await bearer().post<PurchaseAnswer>('/data/credits/purchase', {
      package_id: packageId,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  let eventCount = 0;
  const event = (type: string, object: Record<string, unknown>) =>
    JSON.stringify({ id: `evt_${++eventCount}`, object: 'event', type, data: { object } });
  const session = (reference: string, extra: Record<string, unknown> = {}) => ({
    id: `cs_for_${reference}`,
    object: 'checkout.session',
    client_reference_id: reference,
    metadata: { payment_reference: reference },
    payment_status: 'paid',
    payment_intent: `pi_for_${reference}`,
    ...extra,
  });
  const signed = (payload: string, at = app.clock.now()) =>
    stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(at.getTime() / 1000),
    });
  const deliver = (payload: string, signature: string | null = signed(payload)) =>
    app.api.post<{ result: string; code?: string; mensagem?: string }>(
      '/payments/stripe/webhook',
      undefined,
      {
        rawBody: payload,
        headers: signature === null ? {} : { 'Stripe-Signature': signature },
      },
    );

  it('opens a Checkout Session in payment mode for the package, and answers its URL', async () => {
    const before = standIn.requests.length;
    const started = await purchase('pro');
    expect(standIn.requests).toHaveLength(before + 1);
    const sent = standIn.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.authorization).toBe('Bearer sk_test_the_api_key');
    const form = Object.fromEntries(sent.form);
    expect(form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '7900',
      client_reference_id: started.reference,
      'metadata[payment_reference]': started.reference,
      'payment_intent_data[metadata][payment_reference]': started.reference,
      success_url: `${PUBLIC_BASE}/dashboard/credits?checkout=success&payment=${started.reference}`,
      cancel_url: `${PUBLIC_BASE}/dashboard/credits?checkout=cancelled&payment=${started.reference}`,
    });
    expect(started.checkout_url).toBe(`https://checkout.stripe.test/c/pay/cs_test_${before + 1}`);
    expect(await payment(started.reference)).toMatchObject({
      status: 'pending',
      provider: 'stripe',
      provider_session_id: `cs_test_${before + 1}`,
    });
  });

  it('credits once on checkout.session.completed, replayed or delivered concurrently', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const payload = event('checkout.session.completed', session(started.reference));
    const deliveries = await Promise.all(Array.from({ length: 8 }, () => deliver(payload)));
    expect(deliveries.map((d) => d.status)).toEqual(Array(8).fill(200));
    expect(deliveries.filter((d) => d.body.result === 'credited')).toHaveLength(1);
    expect(deliveries.filter((d) => d.body.result === 'already_paid')).toHaveLength(7);
    // the same event again, later (Stripe retries until it gets a 2xx)
    expect((await deliver(payload)).body.result).toBe('already_paid');
    expect(await balance()).toBe(before + 500);
    const row = await payment(started.reference);
    expect(row).toMatchObject({ status: 'paid', provider_payment_id: `pi_for_${started.reference}` });
    expect(await ledger(row.id)).toEqual([{ kind: 'purchase', delta: 500 }]);
  });

  it('refuses a tampered body, a stale timestamp and a missing signature, crediting nothing', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const payload = event('checkout.session.completed', session(started.reference));
    const tampered = await deliver(payload.replace('"paid"', '"paid" '), signed(payload));
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe('INVALID_SIGNATURE');
    expect(tampered.body.mensagem).toMatch(/^Assinatura do webhook inválida/);
    const stale = await deliver(payload, signed(payload, new Date(app.clock.now().getTime() - 301_000)));
    expect(stale.status).toBe(401);
    expect(stale.body.mensagem).toContain('stale');
    const otherSecret = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_another' });
    expect((await deliver(payload, otherSecret)).status).toBe(401);
    expect((await deliver(payload, null)).status).toBe(401);
    expect(await balance()).toBe(before);
    expect((await payment(started.reference)).status).toBe('pending');
    // within the tolerance it holds
    const recent = await deliver(payload, signed(payload, new Date(app.clock.now().getTime() - 200_000)));
    expect(recent.body.result).toBe('credited');
  });

  it('waits for a delayed payment, and records failures and expiries', async () => {
    const before = await balance();
    const delayed = await purchase('starter');
    const unpaid = session(delayed.reference, { payment_status: 'unpaid' });
    expect((await deliver(event('checkout.session.completed', unpaid))).body.result).toBe('awaiting');
    expect(await balance()).toBe(before);
    const succeeded = event('checkout.session.async_payment_succeeded', session(delayed.reference));
    expect((await deliver(succeeded)).body.result).toBe('credited');
    expect(await balance()).toBe(before + 500);

    const failing = await purchase('starter');
    const failed = event('checkout.session.async_payment_failed', session(failing.reference));
    expect((await deliver(failed)).body.result).toBe('failed');
    expect((await payment(failing.reference)).status).toBe('failed');

    const abandoned = await purchase('starter');
    const expired = session(abandoned.reference, { payment_status: 'unpaid', payment_intent: null });
    expect((await deliver(event('checkout.session.expired', expired))).body.result).toBe('expired');
    expect((await payment(abandoned.reference)).status).toBe('expired');
    expect(await balance()).toBe(before + 500);
  });

  it('on a full refund takes back the credits still held, never below zero; a partial one is recorded', async () => {
    const started = await purchase('starter');
    await deliver(event('checkout.session.completed', session(started.reference)));
    const charge = (refunded: number) => ({
      id: `ch_for_${started.reference}`,
      object: 'charge',
      payment_intent: `pi_for_${started.reference}`,
      amount: 1900,
      amount_refunded: refunded,
      refunded: refunded === 1900,
    });
    expect((await deliver(event('charge.refunded', charge(500)))).body.result).toBe('partially_refunded');
    expect((await payment(started.reference)).status).toBe('paid');
    // the buyer spent all but 120 credits before the refund
    await app.services.db
      .updateTable('accounts')
      .set({ credits: 120 })
      .where('id', '=', account.accountId)
      .execute();
    const full = event('charge.refunded', charge(1900));
    const [first, second] = await Promise.all([deliver(full), deliver(full)]);
    expect([first!.body.result, second!.body.result].sort()).toEqual(['already_refunded', 'refunded']);
    expect(await balance()).toBe(0);
    const row = await payment(started.reference);
    expect(row).toMatchObject({ status: 'refunded', credits_reversed: 120 });
    expect(await ledger(row.id)).toEqual([
      { kind: 'purchase', delta: 500 },
      { kind: 'adjustment', delta: -120 },
    ]);
    // a success replayed after the refund changes nothing
    const replay = await deliver(event('checkout.session.completed', session(started.reference)));
    expect(replay.body.result).toBe('not_pending');
    expect(await balance()).toBe(0);
  });

  it('a refund of an unknown payment is 404 PAYMENT_NOT_FOUND and changes nothing', async () => {
    const before = await balance();
    const payments = () =>
      app.services.db.selectFrom('payments').select(['id', 'status', 'refunded_eur']).orderBy('id').execute();
    const rows = await payments();
    const refund = event('charge.refunded', {
      id: 'ch_unknown',
      object: 'charge',
      payment_intent: 'pi_never_seen_here',
      amount: 1900,
      amount_refunded: 1900,
      refunded: true,
    });
    const res = await deliver(refund);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PAYMENT_NOT_FOUND');
    expect(res.body.mensagem).toContain('pi_never_seen_here');
    expect(await balance()).toBe(before);
    expect(await payments()).toEqual(rows);
  });

  it('a refund of a payment never paid takes nothing: unknown while its success never came, recorded once its PaymentIntent is known', async () => {
    // credits held (an operator's grant), so that a refund taking any would show
    await app.services.db.transaction().execute((trx) =>
      moveCredits(trx, {
        accountId: account.accountId,
        delta: 300,
        kind: 'adjustment',
        reason: 'test: credits held',
        now: app.clock.now(),
      }),
    );
    const before = await balance();
    expect(before).toBeGreaterThanOrEqual(300);
    const started = await purchase('starter');
    const refund = (refunded: number) =>
      event('charge.refunded', {
        id: `ch_for_${started.reference}`,
        object: 'charge',
        payment_intent: `pi_for_${started.reference}`,
        amount: 1900,
        amount_refunded: refunded,
        refunded: refunded === 1900,
      });
    // the checkout never reported a success: no PaymentIntent of ours has that id
    const unknown = await deliver(refund(1900));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PAYMENT_NOT_FOUND');
    expect(await payment(started.reference)).toMatchObject({ status: 'pending', credits_reversed: null });
    // its PaymentIntent recorded (an operator reconciling with Stripe), still unpaid: a partial
    // refund is recorded, a full one marks it refunded; neither takes a credit
    await app.services.db
      .updateTable('payments')
      .set({ provider_payment_id: `pi_for_${started.reference}` })
      .where('provider_ref', '=', started.reference)
      .execute();
    expect((await deliver(refund(700))).body.result).toBe('partially_refunded');
    expect(await payment(started.reference)).toMatchObject({ status: 'pending' });
    const full = await deliver(refund(1900));
    expect(full.status).toBe(200);
    expect(full.body.result).toBe('refunded');
    const row = await payment(started.reference);
    expect(row).toMatchObject({ status: 'refunded', credits_reversed: 0 });
    expect(await ledger(row.id)).toEqual([]);
    expect(await balance()).toBe(before);
    // and its success, arriving after the refund, credits nothing
    const late = await deliver(event('checkout.session.completed', session(started.reference)));
    expect(late.body.result).toBe('not_pending');
    expect(await balance()).toBe(before);
  });

  it('answers 200 "ignored" to events it does not act on, 404 to the sandbox webhook', async () => {
    expect((await deliver(event('customer.created', { id: 'cus_1', object: 'customer' }))).body.result).toBe(
      'ignored',
    );
    const foreign = session('x', { metadata: {}, client_reference_id: null });
    expect((await deliver(event('checkout.session.completed', foreign))).body.result).toBe('ignored');
    const sandbox = await app.api.post<{ code: string }>('/payments/webhook', {
      event: 'payment.succeeded',
      payment: 'pay_x',
    });
    expect(sandbox.status).toBe(404);
    expect(sandbox.body.code).toBe('WEBHOOK_NOT_ACTIVE');
  });
});

describe('Stripe unreachable', () => {
  it('answers 503 PAYMENT_PROVIDER_UNAVAILABLE and records no payment', async () => {
    const standIn = await stripeStandIn();
    const base = standIn.base;
    await new Promise((resolve) => standIn.server.close(resolve));
    const app = await startTestApp({ env: stripeEnv(base) });
    try {
      const account = await createTestAccount(app.services.db, app.clock);
      const res = await app.api
        .withBearer(account.bearer)
        .post<{ code: string; mensagem: string }>('/data/credits/purchase', { package_id: 'pro' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('PAYMENT_PROVIDER_UNAVAILABLE');
      expect(res.body.mensagem).toContain('nada foi cobrado');
      expect(await app.services.db.selectFrom('payments').selectAll().execute()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
