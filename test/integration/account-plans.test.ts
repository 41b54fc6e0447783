import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { changePlan } from '../../src/accounts/plans.js';
import { createTestAccount } from '../helpers/accounts-fixture.js';
import { runScript } from '../helpers/run-script.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { statuses, type TestClient } from '../helpers/test-client.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import type { AccountAnswer, BalanceAnswer, SearchAnswer } from '../../web/src/api-types.js';

interface ErrorBody {
  success: false;
  mensagem: string;
  code: string;
  field?: string;
  plan_value?: number;
}

const search = (client: TestClient) => client.post('/data/search', { reference: 'NADA' });

describe('account plans', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      redis: Boolean(TEST_REDIS_URL),
      env: {
        RATE_LIMIT_PER_MINUTE: '20',
        RATE_LIMIT_PER_HOUR: '1000',
        MAX_API_KEYS_PER_ACCOUNT: '3',
        TOOL_RATE_LIMIT_PER_MINUTE: '2',
        // a plan changed behind the API's back (the operator's command) is read on the next lookup
        CREDENTIAL_CACHE_SECONDS: '0',
      },
    });
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app?.close());

  const account = () => createTestAccount(app.services.db, app.clock);

  it("refuses key limits above the account's plan with 400 LIMIT_ABOVE_PLAN naming the field and the plan's value", async () => {
    const holder = await account();
    const owner = app.api.withBearer(holder.bearer);
    const lifted = await owner.patch<ErrorBody>(`/api-keys/${holder.apiKeyId}`, {
      rate_limit_per_minute: 1_000_000,
    });
    expect(lifted.status).toBe(400);
    expect(lifted.body).toMatchObject({
      success: false,
      code: 'LIMIT_ABOVE_PLAN',
      field: 'rate_limit_per_minute',
      plan_value: 20,
    });
    expect(lifted.body.mensagem).toContain('corpo.rate_limit_per_minute (1000000)');
    expect(lifted.body.mensagem).toContain('no máximo 20 pedidos por minuto');
    const created = await owner.post<ErrorBody>('/api-keys', { name: 'grande', rate_limit_per_hour: 5000 });
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({
      code: 'LIMIT_ABOVE_PLAN',
      field: 'rate_limit_per_hour',
      plan_value: 1000,
    });
    // within the plan: accepted
    const narrowed = await owner.patch(`/api-keys/${holder.apiKeyId}`, { rate_limit_per_minute: 20 });
    expect(narrowed.status).toBe(200);
    // no daily credits in the default plan: any daily limit of its own is within it
    expect((await owner.patch('/account', { daily_credit_limit: 900_000 })).status).toBe(200);

    await changePlan(app.services.db, holder.accountId, { daily_credits: 100 }, app.clock.now());
    const daily = await owner.patch<ErrorBody>(`/api-keys/${holder.apiKeyId}`, { daily_credit_limit: 101 });
    expect(daily.status).toBe(400);
    expect(daily.body).toMatchObject({ field: 'daily_credit_limit', plan_value: 100 });
    expect(daily.body.mensagem).toContain('no máximo 100 créditos por dia');
    const accountDaily = await owner.patch<ErrorBody>('/account', { daily_credit_limit: 500 });
    expect(accountDaily.status).toBe(400);
    expect(accountDaily.body.field).toBe('daily_credit_limit');
    expect((await owner.patch('/account', { daily_credit_limit: 100 })).status).toBe(200);
    const shown = await owner.get<AccountAnswer>('/account');
    expect(shown.body.plan).toEqual({
      rate_limit_per_minute: 20,
      rate_limit_per_hour: 1000,
      daily_credits: 100,
    });
  });

  it('counts every key and Bearer session of an account in one account-wide bucket', async () => {
    const holder = await account();
    await changePlan(app.services.db, holder.accountId, { rate_limit_per_minute: 6 }, app.clock.now());
    const second = await createApiKey(app.services.db, holder.accountId, { name: 'segunda' });
    const keyA = app.api.withApiKey(holder.apiKey);
    const keyB = app.api.withApiKey(second.key);
    const bearer = app.api.withBearer(holder.bearer);
    expect(await statuses(2, () => search(keyA))).toEqual([200, 200]);
    expect(await statuses(2, () => search(keyB))).toEqual([200, 200]);
    const last = await search(bearer);
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(last.headers.get('ratelimit-policy')).toBe('6;w=60, 1000;w=3600');
    expect((await search(keyA)).status).toBe(200);
    // the plan's 6 a minute are spent, whichever credential asks
    for (const client of [keyA, keyB, bearer]) {
      const refused = await search(client);
      expect(refused.status).toBe(429);
      expect((refused.body as unknown as ErrorBody).mensagem).toContain(
        'Limite de 6 pedidos por minuto da conta',
      );
    }
    // a new key brings no new allowance
    const third = await createApiKey(app.services.db, holder.accountId, { name: 'terceira' });
    expect((await search(app.api.withApiKey(third.key))).status).toBe(429);
    // another account is not affected
    expect((await search(app.api.withApiKey((await account()).apiKey))).status).toBe(200);
    // nor is the owner's management of the account: keys can still be revoked
    expect((await bearer.delete(`/api-keys/${second.id}`)).status).toBe(200);
  });

  it("a key's own lower limit binds it, and the headers show the window closest to running out", async () => {
    const holder = await account();
    await changePlan(app.services.db, holder.accountId, { rate_limit_per_minute: 6 }, app.clock.now());
    const slow = await createApiKey(app.services.db, holder.accountId, {
      name: 'lenta',
      rate_limit_per_minute: 4,
    });
    const slowKey = app.api.withApiKey(slow.key);
    const first = await search(slowKey);
    expect(first.headers.get('ratelimit-policy')).toBe('4;w=60, 6;w=60, 1000;w=3600');
    expect(first.headers.get('x-ratelimit-limit')).toBe('4');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('3');
    // the other key spends the account's allowance: now the account's window is the closer one
    expect(await statuses(3, () => search(app.api.withApiKey(holder.apiKey)))).toEqual([200, 200, 200]);
    const second = await search(slowKey);
    expect(second.headers.get('x-ratelimit-limit')).toBe('6');
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('caps live keys per account (409 API_KEY_LIMIT_REACHED), also when created at once; revoked keys do not count', async () => {
    const holder = await account(); // 1 live key
    const owner = app.api.withBearer(holder.bearer);
    const burst = await Promise.all(
      Array.from({ length: 6 }, (_, i) => owner.post<ErrorBody>('/api-keys', { name: `k${i}` })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(2);
    const refused = burst.filter((r) => r.status === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.body.code).toBe('API_KEY_LIMIT_REACHED');
    expect(refused[0]!.body.mensagem).toContain('o máximo permitido é 3');
    expect((await owner.delete(`/api-keys/${holder.apiKeyId}`)).status).toBe(200);
    expect((await owner.post('/api-keys', { name: 'depois' })).status).toBe(201);
    expect((await owner.post('/api-keys', { name: 'a mais' })).status).toBe(409);
  });

  it('limits the tool per account: new keys give no new executions', async () => {
    const holder = await account();
    const second = await createApiKey(app.services.db, holder.accountId, { name: 'outra' });
    const run = (client: TestClient) =>
      client.post<ErrorBody>('/tools/execute', { slug: 'inexistente', input: {} });
    expect((await run(app.api.withApiKey(holder.apiKey))).status).toBe(404);
    expect((await run(app.api.withApiKey(second.key))).status).toBe(404);
    const third = await run(app.api.withBearer(holder.bearer));
    expect(third.status).toBe(429);
    expect(third.body.mensagem).toContain('Limite de 2 execuções de ferramentas por minuto da conta');
    // the rest of the account's plan is still there
    expect((await search(app.api.withApiKey(second.key))).status).toBe(200);
  });

  it("charges within the plan's daily credits, whatever the account's own limit", async () => {
    const holder = await account();
    await changePlan(app.services.db, holder.accountId, { daily_credits: 1 }, app.clock.now());
    const key = app.api.withApiKey(holder.apiKey);
    const first = await key.post<SearchAnswer>('/data/search', { reference: '1K0 615 301 AA' });
    expect(first.status).toBe(200);
    expect(first.body.credits_spent).toBe(1);
    const second = await key.post<ErrorBody>('/data/search', { reference: '1K0 615 301 AA' });
    expect(second.status).toBe(402);
    expect(second.body.code).toBe('DAILY_LIMIT_REACHED');
    const balance = await app.api.withBearer(holder.bearer).get<BalanceAnswer>('/data/credits/balance');
    expect(balance.body.daily_credit_limit).toBe(1);
  });

  describe("the plan's daily credits against the account's own daily limit: the lower one binds", () => {
    /** `n` charged searches (each a first page with results), one after another: their statuses. */
    const charged = (client: TestClient, n: number) =>
      statuses(n, () => client.post('/data/search', { reference: '1K0 615 301 AA' }));
    const refusal = (client: TestClient) =>
      client.post<ErrorBody & { daily_credit_limit: number; spent_today: number }>('/data/search', {
        reference: '1K0 615 301 AA',
      });

    it("the account's own limit below the plan's: the account's binds", async () => {
      const holder = await account();
      await changePlan(app.services.db, holder.accountId, { daily_credits: 5 }, app.clock.now());
      const owner = app.api.withBearer(holder.bearer);
      expect((await owner.patch('/account', { daily_credit_limit: 2 })).status).toBe(200);
      const key = app.api.withApiKey(holder.apiKey);
      expect(await charged(key, 2)).toEqual([200, 200]);
      const third = await refusal(key);
      expect(third.status).toBe(402);
      expect(third.body).toMatchObject({
        code: 'DAILY_LIMIT_REACHED',
        daily_credit_limit: 2,
        spent_today: 2,
      });
      const balance = await owner.get<BalanceAnswer>('/data/credits/balance');
      expect(balance.body).toMatchObject({ daily_credit_limit: 2, spent_today: 2, credits: 48 });
    });

    it("the plan lowered below the account's own limit: the plan's binds, the account keeps its own", async () => {
      const holder = await account();
      const owner = app.api.withBearer(holder.bearer);
      expect((await owner.patch('/account', { daily_credit_limit: 5 })).status).toBe(200);
      // the operator lowers the plan afterwards, below what the owner had set
      await changePlan(app.services.db, holder.accountId, { daily_credits: 2 }, app.clock.now());
      const key = app.api.withApiKey(holder.apiKey);
      expect(await charged(key, 2)).toEqual([200, 200]);
      const third = await refusal(key);
      expect(third.status).toBe(402);
      expect(third.body).toMatchObject({
        code: 'DAILY_LIMIT_REACHED',
        daily_credit_limit: 2,
        spent_today: 2,
      });
      const shown = await owner.get<AccountAnswer>('/account');
      expect(shown.body.account.daily_credit_limit).toBe(5);
      expect(shown.body.plan.daily_credits).toBe(2);
      const balance = await owner.get<BalanceAnswer>('/data/credits/balance');
      expect(balance.body).toMatchObject({ daily_credit_limit: 2, spent_today: 2, credits: 48 });
      // the plan raised again above it: the account's own limit binds again, counting today's two
      await changePlan(app.services.db, holder.accountId, { daily_credits: 10 }, app.clock.now());
      expect(await charged(key, 3)).toEqual([200, 200, 200]);
      const sixth = await refusal(key);
      expect(sixth.status).toBe(402);
      expect(sixth.body).toMatchObject({ daily_credit_limit: 5, spent_today: 5 });
    });
  });

  it('is changed by the operator command (npm run account:plan), in Portuguese', async () => {
    const holder = await account();
    const env = { DATABASE_URL: app.database.url ?? '', LOG_LEVEL: 'silent' };
    const run = (...args: string[]) => runScript('account-plan.ts', args, env);
    const raised = await run(
      '--email',
      holder.email.toUpperCase(),
      '--per-minute',
      '9',
      '--daily-credits',
      '40',
    );
    expect(raised.code).toBe(0);
    expect(raised.stdout).toContain(`Plano da conta ${holder.email}`);
    expect(raised.stdout).toMatch(/Agora:\n {2}pedidos por minuto: 9\n/);
    expect(raised.stdout).toMatch(/créditos por dia: +40\n/);
    const shown = await app.api.withBearer(holder.bearer).get<AccountAnswer>('/account');
    expect(shown.body.plan).toEqual({
      rate_limit_per_minute: 9,
      rate_limit_per_hour: 1000,
      daily_credits: 40,
    });
    expect(await statuses(10, () => search(app.api.withApiKey(holder.apiKey)))).toEqual([
      ...Array(9).fill(200),
      429,
    ]);
    const back = await run('--email', holder.email, '--daily-credits', 'padrao');
    expect(back.code).toBe(0);
    expect(back.stdout).toMatch(/créditos por dia: +sem limite \(por omissão\)\n/);

    // the refusals change nothing, so they run side by side
    const [unknown, bad, missing] = await Promise.all([
      run('--email', 'ninguem@exemplo.pt'),
      run('--email', holder.email, '--per-hour', 'muito'),
      run('--per-hour', '5'),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('não existe nenhuma conta com o e-mail ninguem@exemplo.pt');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"muito" não é válido');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Falta a opção obrigatória --email');
    // five runs of a command, each compiling it afresh: a generous budget for a loaded machine
  }, 240_000);
});
