import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { paymentLedger, PUBLIC_BASE } from '../helpers/payments-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { BalanceAnswer, HistoryAnswer, PurchaseAnswer } from '../../web/src/api-types.js';

/**
 * The embedded default: no provider configured, no database URL, and a purchase completes end to
 * end over HTTP through the sandbox's own checkout page (its secret is drawn at start: the test
 * cannot sign, only the page can).
 */
describe('credit purchases through the sandbox checkout', () => {
  let app: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_BASE_URL: PUBLIC_BASE } });
    account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  const bearer = () => app.api.withBearer(account.bearer);
  const balance = async () => (await bearer().get<BalanceAnswer>('/data/credits/balance')).body.credits;
  const payment = (reference: string) =>
    app.services.db
      .selectFrom('payments')
      .select(['id', 'status', 'provider', 'paid_at'])
      .where('provider_ref', '=', reference)
      .executeTakeFirstOrThrow();
  const ledger = (paymentId: string) => paymentLedger(app.services.db, paymentId);

  async function purchase(packageId = 'starter') {
    const res = await bearer().post<PurchaseAnswer>('/data/credits/purchase', { package_id: packageId });
    expect(res.status).toBe(201);
    return res.body;
  }
  /** the page's path, as the buyer's browser opens checkout_url on this server */
  const pagePath = (started: PurchaseAnswer) => new URL(started.checkout_url).pathname;
  const submit = (started: PurchaseAnswer, action: 'pay' | 'cancel') =>
    // what the page's form sends: a POST without fields
    app.api.post(`${pagePath(started)}/${action}`, undefined, {
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });

  it('is the provider of the embedded shape', () => {
    expect(app.services.payments.provider).toBe('sandbox');
  });

  it('shows a Portuguese checkout page with its own CSP and no script', async () => {
    const started = await purchase('pro');
    expect(started.checkout_url).toBe(`${PUBLIC_BASE}/payments/sandbox/checkout/${started.reference}`);
    const page = await app.api.get<string>(pagePath(started));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain(`form-action 'self' ${PUBLIC_BASE}`);
    expect(csp).not.toMatch(/unsafe-inline|script-src|https?:\/\/(?!painel\.test)/);
    expect(page.body).toContain('<html lang="pt">');
    expect(page.body).toContain('2500');
    expect(page.body).toMatch(/79,00\s€/);
    expect(page.body).toContain(`action="/payments/sandbox/checkout/${started.reference}/pay"`);
    expect(page.body).toContain('>Pagar<');
    expect(page.body).toContain('>Cancelar<');
    expect(page.body).not.toMatch(/<script|src=|href="http(?!:\/\/painel\.test)/);
  });

  it('pays: redirects to the dashboard, credits once, writes the ledger and history', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const paid = await submit(started, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `${PUBLIC_BASE}/dashboard/credits?checkout=success&payment=${started.reference}`,
    );
    expect(await balance()).toBe(before + 500);
    // paying again (back button, double click) credits nothing more
    const again = await submit(started, 'pay');
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toContain('checkout=success');
    await Promise.all(Array.from({ length: 5 }, () => submit(started, 'pay')));
    expect(await balance()).toBe(before + 500);

    const row = await payment(started.reference);
    expect(row).toMatchObject({ status: 'paid', provider: 'sandbox' });
    expect(await ledger(row.id)).toEqual([{ kind: 'purchase', delta: 500 }]);
    const history = await bearer().get<HistoryAnswer>('/data/credits/history?kind=purchase');
    expect(history.body.results.filter((r) => r.credits === 500)).toHaveLength(1);
    // the page now says it is done, without buttons
    const page = await app.api.get<string>(pagePath(started));
    expect(page.body).toContain('já foi concluído');
    expect(page.body).not.toContain('>Pagar<');
  });

  it('cancels: redirects to the dashboard, credits nothing, marks the payment cancelled', async () => {
    const before = await balance();
    const started = await purchase('starter');
    const cancelled = await submit(started, 'cancel');
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(
      `${PUBLIC_BASE}/dashboard/credits?checkout=cancelled&payment=${started.reference}`,
    );
    expect(await balance()).toBe(before);
    const row = await payment(started.reference);
    expect(row.status).toBe('cancelled');
    expect(await ledger(row.id)).toEqual([]);
  });

  it('answers 404 for an unknown reference, and refuses deliveries it did not sign', async () => {
    const unknown = await app.api.get<{ code: string; mensagem: string }>(
      '/payments/sandbox/checkout/pay_desconhecido',
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('PAYMENT_NOT_FOUND');
    expect((await app.api.post('/payments/sandbox/checkout/pay_desconhecido/pay')).status).toBe(404);
    const started = await purchase('starter');
    const raw = JSON.stringify({ event: 'payment.succeeded', payment: started.reference });
    const forged = await app.api.post<{ code: string }>('/payments/webhook', undefined, {
      rawBody: raw,
      headers: { 'X-Payment-Signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
    });
    expect(forged.status).toBe(401);
    expect((await payment(started.reference)).status).toBe('pending');
  });

  it('declares its routes in /openapi.json', async () => {
    const doc = await app.api.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/payments/sandbox/checkout/{reference}',
        '/payments/sandbox/checkout/{reference}/pay',
        '/payments/sandbox/checkout/{reference}/cancel',
        '/payments/stripe/webhook',
        '/payments/webhook',
      ]),
    );
  });
});

describe('the sandbox with a production database', () => {
  it('is off when not chosen: its checkout page answers 404 SANDBOX_NOT_ACTIVE', async () => {
    const app = await startTestApp({ env: { PAYMENT_PROVIDER: 'none' } });
    try {
      expect(app.services.payments.provider).toBeNull();
      const page = await app.api.get<{ code: string }>('/payments/sandbox/checkout/pay_x');
      expect(page.status).toBe(404);
      expect(page.body.code).toBe('SANDBOX_NOT_ACTIVE');
    } finally {
      await app.close();
    }
  });
});
