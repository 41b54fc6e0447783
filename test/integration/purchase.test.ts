import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/payments/webhook-signature.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import {
  PUBLIC_BASE,
  SANDBOX_SECRET as SECRET,
  sandboxWithKnownSecret,
} from '../helpers/payments-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { BalanceAnswer, HistoryAnswer, PurchaseAnswer } from '../../web/src/api-types.js';

// The sandbox provider's webhook (POST /payments/webhook), signed with a secret the test knows.

describe('credit purchases', () => {
  let app: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startTestApp(sandboxWithKnownSecret());
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  const bearer = () => app.api.withBearer(account.bearer);
  const balance = async () => (await bearer().get<BalanceAnswer>('/data/credits/balance')).body.credits;

  async function deliver(event: string, payment: string, signature?: string) {
    const raw = JSON.stringify({ event, payment, id: `evt_${Math.random()}` });
    return app.api.post<{ result: string; code?: string }>('/payments/webhook', undefined, {
      rawBody: raw,
      headers: { 'X-Payment-Signature': signature ?? signWebhook(SECRET, raw, app.clock.now()) },
    });
  }

  async function purchase(packageId = 'starter') {
    const res = await bearer().post<PurchaseAnswer>('/data/credits/purchase', { package_id: packageId });
    expect(res.status).toBe(201);
    return res.body;
  }

  it('starts a purchase with the sandbox checkout address and credits nothing yet', async () => {
    const before = await balance();
    const started = await purchase('pro');
    expect(started).toMatchObject({
      status: 'pending',
      package: { id: 'pro', credits: 2500, price_eur: 79 },
    });
    expect(started.reference).toMatch(/^pay_[0-9A-Za-z]{24}$/);
    expect(started.checkout_url).toBe(`${PUBLIC_BASE}/payments/sandbox/checkout/${started.reference}`);
    expect(await balance()).toBe(before);
  });

  it('credits once on a verified success, however often and however concurrently it is delivered', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const reference = started.reference;
    const deliveries = await Promise.all(
      Array.from({ length: 8 }, () => deliver('payment.succeeded', reference)),
    );
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect(deliveries.filter((d) => d.body.result === 'credited')).toHaveLength(1);
    expect(deliveries.filter((d) => d.body.result === 'already_paid')).toHaveLength(7);
    expect(await balance()).toBe(before + 500);

    const ledger = await app.services.db
      .selectFrom('credit_ledger')
      .select(['delta', 'balance_after'])
      .where('account_id', '=', account.accountId)
      .where('kind', '=', 'purchase')
      .execute();
    expect(ledger).toEqual([{ delta: 500, balance_after: before + 500 }]);
    const history = await bearer().get<HistoryAnswer>('/data/credits/history?kind=purchase');
    expect(history.body.results).toHaveLength(1);
    expect(history.body.results[0]).toMatchObject({ kind: 'purchase', credits: 500 });
  });

  it('refuses unsigned, forged and stale deliveries with 401 and changes nothing', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const reference = started.reference;
    const raw = JSON.stringify({ event: 'payment.succeeded', payment: reference });
    const missing = await app.api.post<{ code: string }>('/payments/webhook', undefined, { rawBody: raw });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('INVALID_SIGNATURE');
    const forged = await deliver(
      'payment.succeeded',
      reference,
      signWebhook('another-secret-0123456789', raw, app.clock.now()),
    );
    expect(forged.status).toBe(401);
    const old = new Date(app.clock.now().getTime() - 10 * 60_000);
    const stale = await app.api.post('/payments/webhook', undefined, {
      rawBody: raw,
      headers: { 'X-Payment-Signature': signWebhook(SECRET, raw, old) },
    });
    expect(stale.status).toBe(401);
    expect(await balance()).toBe(before);
  });

  it("follows the provider's last word: failed then succeeded credits once; paid is final", async () => {
    const before = await balance();
    const started = await purchase('starter');
    const reference = started.reference;
    expect((await deliver('payment.failed', reference)).body.result).toBe('failed');
    expect((await deliver('payment.failed', reference)).body.result).toBe('failed');
    expect(await balance()).toBe(before);
    // the buyer retried on the provider's page and paid
    expect((await deliver('payment.succeeded', reference)).body.result).toBe('credited');
    expect(await balance()).toBe(before + 500);
    // a late or replayed failure, or a second success, changes nothing
    expect((await deliver('payment.failed', reference)).body.result).toBe('already_paid');
    expect((await deliver('payment.succeeded', reference)).body.result).toBe('already_paid');
    expect(await balance()).toBe(before + 500);
    const payment = await app.services.db
      .selectFrom('payments')
      .select(['status', 'paid_at'])
      .where('provider_ref', '=', reference)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('paid');
    expect(payment.paid_at).not.toBeNull();
  });

  it('accepts a signature header with several v1 values when any of them matches (secret rotation)', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const reference = started.reference;
    const raw = JSON.stringify({ event: 'payment.succeeded', payment: reference });
    const now = app.clock.now();
    const valid = signWebhook(SECRET, raw, now); // t=…,v1=<good>
    const [t, goodV1] = valid.split(',');
    const otherV1 = signWebhook('the-previous-secret-0123456789', raw, now).split(',')[1];
    const send = (header: string) =>
      app.api.post<{ result?: string; code?: string }>('/payments/webhook', undefined, {
        rawBody: raw,
        headers: { 'X-Payment-Signature': header },
      });
    // none matches: refused
    expect((await send(`${t},${otherV1},${otherV1}`)).status).toBe(401);
    // the matching one first, then another: accepted (it used to need the last one to match)
    const first = await send(`${t},${goodV1},${otherV1}`);
    expect(first.status).toBe(200);
    expect(first.body.result).toBe('credited');
    expect((await send(`${t}, ${otherV1}, ${goodV1}`)).body.result).toBe('already_paid');
    // still within the tolerance only
    const stale = signWebhook(SECRET, raw, new Date(now.getTime() - 10 * 60_000));
    expect((await send(`${stale},${otherV1}`)).status).toBe(401);
    expect(await balance()).toBe(before + 500);
  });

  it('answers 404 for an unknown package or payment, 400 for a bad body, 401 for an API key', async () => {
    const unknown = await bearer().post<{ code: string; mensagem: string }>('/data/credits/purchase', {
      package_id: 'gigante',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PACKAGE_NOT_FOUND');
    expect(unknown.body.mensagem).toContain('starter');
    expect((await bearer().post('/data/credits/purchase', {})).status).toBe(400);
    expect(
      (await app.api.withApiKey(account.apiKey).post('/data/credits/purchase', { package_id: 'pro' })).status,
    ).toBe(401);
    expect((await deliver('payment.succeeded', 'pay_inexistente')).status).toBe(404);
  });

  it('answers 401 without a credential or with an unknown token, and records no payment', async () => {
    const payments = async () => (await app.services.db.selectFrom('payments').selectAll().execute()).length;
    const before = await payments();
    for (const client of [app.api, app.api.withBearer('pst_desconhecido')]) {
      const res = await client.post<{ success: boolean; mensagem: string; checkout_url?: string }>(
        '/data/credits/purchase',
        { package_id: 'pro' },
      );
      expect(res.status).toBe(401);
      expect(res.body.success).toBe(false);
      expect(res.body.mensagem.length).toBeGreaterThan(0);
      expect(res.body).not.toHaveProperty('checkout_url');
    }
    expect(await payments()).toBe(before);
    // the same request with the account's token does start a payment
    await purchase('pro');
    expect(await payments()).toBe(before + 1);
  });
});

describe('credit purchases when payments are not configured', () => {
  it('answers 503 PAYMENTS_NOT_CONFIGURED and records nothing', async () => {
    const app = await startTestApp({ env: { PAYMENT_PROVIDER: 'none' } });
    try {
      const account = await createTestAccount(app.services.db, app.clock);
      const res = await app.api
        .withBearer(account.bearer)
        .post<{ code: string }>('/data/credits/purchase', { package_id: 'pro' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('PAYMENTS_NOT_CONFIGURED');
      expect(await app.services.db.selectFrom('payments').selectAll().execute()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
