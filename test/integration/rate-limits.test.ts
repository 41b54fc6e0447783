import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { statuses, type TestClient, type TestResponse } from '../helpers/test-client.js';
import { TEST_REDIS_URL } from '../helpers/test-env.js';
import type { LoginAnswer } from '../../web/src/api-types.js';

interface LimitedBody {
  success: false;
  mensagem: string;
  code: string;
  remaining: number;
  resetAt: string;
}

/** The service's own defaults, written out so the test says what it checks. */
const LIMITS = {
  RATE_LIMIT_PER_MINUTE: '60',
  RATE_LIMIT_PER_HOUR: '1000',
  PUBLIC_RATE_LIMIT_PER_MINUTE: '120',
  REGISTRATIONS_PER_IP_PER_HOUR: '5',
  TRUST_PROXY: 'true',
};

const fromIp = (client: TestClient, ip: string) => client.with({ 'X-Forwarded-For': ip });

/** `now` is the app's clock (a ManualClock): resetAt is reckoned on it, not on this machine's. */
function expectRateLimited(res: TestResponse<unknown>, limit: number, windowSeconds: number, now: Date) {
  const body = res.body as LimitedBody;
  expect(res.status).toBe(429);
  expect(body).toMatchObject({ success: false, code: 'RATE_LIMITED', remaining: 0 });
  expect(body.mensagem).toMatch(/Limite de \d+ pedidos por (minuto|hora)/);
  const resetIn = (new Date(body.resetAt).getTime() - now.getTime()) / 1000;
  expect(body.resetAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  expect(resetIn).toBeGreaterThan(0);
  expect(resetIn).toBeLessThanOrEqual(windowSeconds + 1);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
}

const backends = [
  { name: 'Redis', redis: true, skip: !TEST_REDIS_URL },
  { name: 'memory', redis: false, skip: false },
];

describe.each(backends)('rate limits on the $name backend', ({ redis, skip }) => {
  let app: TestApp;
  /** every test its own account: the plan's requests are counted for the whole account */
  let account: TestAccount;

  beforeAll(async () => {
    if (skip) return;
    app = await startTestApp({ redis, env: LIMITS });
  });
  beforeEach(async () => {
    if (!skip) account = await createTestAccount(app.services.db, app.clock);
  });
  afterAll(() => app?.close());

  it.skipIf(skip)(
    'lets 60 requests a minute through per account, with headers, and answers the 61st with 429, whatever the key',
    async () => {
      const api = app.api.withApiKey(account.apiKey);
      const first = await api.post('/data/search', { reference: 'NADA' });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-ratelimit-limit')).toBe('60');
      expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
      expect(first.headers.get('ratelimit-policy')).toBe('60;w=60, 1000;w=3600');
      const reset = Number(first.headers.get('x-ratelimit-reset'));
      const now = app.clock.now().getTime() / 1000;
      expect(reset - now).toBeGreaterThan(50);
      expect(reset - now).toBeLessThanOrEqual(61);

      const rest = await statuses(59, () => api.post('/data/search', { reference: 'NADA' }));
      expect(rest.every((s) => s === 200)).toBe(true);
      const sixtyFirst = await api.post('/data/search', { reference: 'NADA' });
      expectRateLimited(sixtyFirst, 60, 60, app.clock.now());

      // Another key of the same account shares the account's allowance: more keys, no more requests.
      const other = await createApiKey(app.services.db, account.accountId, { name: 'outra' });
      const viaOther = await app.api.withApiKey(other.key).post('/data/search', { reference: 'NADA' });
      expectRateLimited(viaOther, 60, 60, app.clock.now());
    },
  );

  it.skipIf(skip)("honours a key's own per-minute limit", async () => {
    const key = await createApiKey(app.services.db, account.accountId, {
      name: 'lenta',
      rate_limit_per_minute: 5,
    });
    const api = app.api.withApiKey(key.key);
    expect(await statuses(5, () => api.post('/data/search', { reference: 'NADA' }))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expectRateLimited(await api.post('/data/search', { reference: 'NADA' }), 5, 60, app.clock.now());
    // the account's other key still has the rest of the account's minute
    expect(
      (await app.api.withApiKey(account.apiKey).post('/data/search', { reference: 'NADA' })).status,
    ).toBe(200);
  });

  it.skipIf(skip)("a key's changed limit applies to the count it already has", async () => {
    const key = await createApiKey(app.services.db, account.accountId, {
      name: 'ajustada',
      rate_limit_per_minute: 3,
    });
    const api = app.api.withApiKey(key.key);
    expect(await statuses(3, () => api.post('/data/search', { reference: 'NADA' }))).toEqual([200, 200, 200]);
    const changed = await app.api
      .withBearer(account.bearer)
      .patch(`/api-keys/${key.id}`, { rate_limit_per_minute: 4 });
    expect(changed.status).toBe(200);
    // one more request within the minute, not four: the count (3) is kept
    expect(await statuses(2, () => api.post('/data/search', { reference: 'NADA' }))).toEqual([200, 429]);
  });

  it.skipIf(skip)('honours the hour window, and says so in the headers', async () => {
    const key = await createApiKey(app.services.db, account.accountId, {
      name: 'horária',
      rate_limit_per_minute: 50,
      rate_limit_per_hour: 3,
    });
    const api = app.api.withApiKey(key.key);
    const ok = await api.post('/data/search', { reference: 'NADA' });
    expect(ok.headers.get('ratelimit-policy')).toBe('50;w=60, 3;w=3600, 60;w=60, 1000;w=3600');
    expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
    expect(ok.headers.get('x-ratelimit-remaining')).toBe('2');
    await statuses(2, () => api.post('/data/search', { reference: 'NADA' }));
    const limited = await api.post<LimitedBody>('/data/search', { reference: 'NADA' });
    expectRateLimited(limited, 3, 3600, app.clock.now());
    expect(limited.body.mensagem).toContain('por hora');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it.skipIf(skip)('a request refused by one window is not counted by the others', async () => {
    const key = await createApiKey(app.services.db, account.accountId, {
      name: 'insistente',
      rate_limit_per_minute: 3,
      rate_limit_per_hour: 4,
    });
    const api = app.api.withApiKey(key.key);
    expect(await statuses(3, () => api.post('/data/search', { reference: 'NADA' }))).toEqual([200, 200, 200]);
    // Retrying through the minute's block: had each refusal counted in the hour (3 served + 5
    // refused > 4), the caller would now be locked out for the hour, not the minute.
    for (let i = 0; i < 5; i++) {
      const refused = await api.post<LimitedBody>('/data/search', { reference: 'NADA' });
      expectRateLimited(refused, 3, 60, app.clock.now());
      expect(refused.body.mensagem).toContain('por minuto');
    }
    // nor in the account's windows: its other key has 57 of its 60 left
    const other = await app.api.withApiKey(account.apiKey).post('/data/search', { reference: 'NADA' });
    expect(other.headers.get('x-ratelimit-remaining')).toBe('56');
  });

  it.skipIf(skip)('limits Bearer callers per account, across their sessions', async () => {
    const limitedApp = await startTestApp({
      redis,
      database: app.database,
      env: { ...LIMITS, RATE_LIMIT_PER_MINUTE: '4' },
    });
    try {
      const holder = await createTestAccount(app.services.db, app.clock);
      const bearer = limitedApp.api.withBearer(holder.bearer);
      expect(await statuses(4, () => bearer.get('/data/credits/balance'))).toEqual([200, 200, 200, 200]);
      const login = await limitedApp.api.post<LoginAnswer>('/auth/login', {
        email: holder.email,
        password: 'password-1234',
      });
      const secondSession = limitedApp.api.withBearer(login.body.access_token);
      expectRateLimited(await secondSession.get('/data/credits/balance'), 4, 60, limitedApp.clock.now());
    } finally {
      await limitedApp.close();
    }
  });

  it.skipIf(skip)('limits public endpoints to 120 a minute per IP', async () => {
    const here = fromIp(app.api, '203.0.113.7');
    const first = await here.get('/data/credits/packages');
    expect(first.headers.get('ratelimit-policy')).toBe('120;w=60');
    const rest = await statuses(119, () => here.get('/data/credits/packages'));
    expect(rest.every((s) => s === 200)).toBe(true);
    expectRateLimited(await here.get('/data/credits/packages'), 120, 60, app.clock.now());
    expect((await fromIp(app.api, '203.0.113.8').get('/data/credits/packages')).status).toBe(200);
  });
});

/**
 * The in-memory windows are timed by the service's clock (limiter-factory.ts), so their ends are
 * driven here by moving the app's ManualClock: no test waits a window out in real time. (Redis
 * keeps its windows' time itself, in each counter's TTL: the Redis cases above fit well within one
 * window, each starting with an account of its own.)
 */
describe('rate windows end when the service clock passes them (in-memory backend)', () => {
  let app: TestApp;
  const clock = new ManualClock(new Date('2026-11-22T12:00:00Z'));

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      env: { ...LIMITS, RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '5' },
    });
  });
  afterAll(() => app?.close());

  const searchAs = (account: TestAccount) => () =>
    app.api.withApiKey(account.apiKey).post<LimitedBody>('/data/search', { reference: 'NADA' });

  it('a full minute refuses until its end on the clock, then counts from zero', async () => {
    const search = searchAs(await createTestAccount(app.services.db, clock));
    expect(await statuses(3, search)).toEqual([200, 200, 200]);
    const refused = await search();
    expectRateLimited(refused, 3, 60, clock.now());
    expect(Number(refused.headers.get('retry-after'))).toBe(60);

    clock.advance(30_000);
    const halfway = await search();
    expect(halfway.status).toBe(429);
    // the same window: the same end, half of it left
    expect(halfway.body.resetAt).toBe(refused.body.resetAt);
    expect(Number(halfway.headers.get('retry-after'))).toBe(30);

    clock.advance(29_999);
    expect((await search()).status).toBe(429);
    clock.advance(1);
    const next = await search();
    expect(next.status).toBe(200);
    // a new minute (3, 1 used) inside the same hour (5, 4 used: the refusals were not counted)
    expect(next.headers.get('x-ratelimit-limit')).toBe('5');
    expect(next.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(await statuses(1, search)).toEqual([200]);
  });

  it('the hour outlasts its minutes: refused in a fresh minute until the hour ends on the clock', async () => {
    const start = clock.now().getTime();
    const search = searchAs(await createTestAccount(app.services.db, clock));
    expect(await statuses(3, search)).toEqual([200, 200, 200]);
    clock.advance(60_000);
    expect(await statuses(2, search)).toEqual([200, 200]);
    const refused = await search();
    expectRateLimited(refused, 5, 3600, clock.now());
    expect(refused.body.mensagem).toContain('por hora');
    expect(new Date(refused.body.resetAt).getTime()).toBe(start + 3_600_000);
    expect(Number(refused.headers.get('retry-after'))).toBe(3_540);

    clock.set(new Date(start + 3_600_000 - 1));
    expect((await search()).status).toBe(429);
    clock.set(new Date(start + 3_600_000));
    const next = await search();
    expect(next.status).toBe(200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('abuse guards', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      redis: Boolean(TEST_REDIS_URL),
      env: {
        TRUST_PROXY: 'true',
        REGISTRATIONS_PER_IP_PER_HOUR: '2',
        LOGIN_FAILURES_PER_WINDOW: '2',
        CREDENTIAL_FAILURES_PER_IP_PER_MINUTE: '3',
      },
    });
  });
  afterAll(() => app?.close());

  it('allows the configured number of registrations per IP per hour, on both registration paths', async () => {
    const ip = fromIp(app.api, '198.51.100.1');
    const body = () => ({ email: `farm.${Math.random()}@exemplo.pt`, password: 'palavra-passe-longa' });
    const first = await ip.post<{ account: { email: string } }>('/auth/register', body());
    expect(first.status).toBe(201);
    // A probe of a taken e-mail counts like any registration: it is never handed back.
    const taken = { email: first.body.account.email, password: 'palavra-passe-longa' };
    expect((await ip.post('/auth/register', taken)).status).toBe(409);
    const third = await ip.post<LimitedBody>('/auth/register', body());
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ code: 'TOO_MANY_REGISTRATIONS', remaining: 0 });
    expect(new Date(third.body.resetAt).getTime()).toBeGreaterThan(app.clock.now().getTime() + 3500_000);
    expect((await ip.post('/data/auth/register-user', body())).status).toBe(429);
    expect((await ip.post('/auth/register', taken)).status).toBe(429);
    const elsewhere = fromIp(app.api, '198.51.100.2');
    expect((await elsewhere.post('/auth/register', body())).status).toBe(201);
    expect((await elsewhere.post('/data/auth/register-user', body())).status).toBe(201);
    expect((await elsewhere.post('/data/auth/register-user', body())).status).toBe(429);
  });

  it('counts an IPv6 caller by its /64: rotating addresses within it does not renew the allowance', async () => {
    const body = () => ({ email: `v6.${Math.random()}@exemplo.pt`, password: 'palavra-passe-longa' });
    const from = (ip: string) => fromIp(app.api, ip).post<LimitedBody>('/auth/register', body());
    expect((await from('2001:db8:1:2::1')).status).toBe(201);
    expect((await from('2001:db8:1:2::2')).status).toBe(201);
    const third = await from('2001:db8:1:2:ffff:ffff:ffff:3');
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('TOO_MANY_REGISTRATIONS');
    expect((await from('2001:db8:1:3::1')).status).toBe(201);
  });

  it('locks an e-mail out per IP: the owner can still log in from elsewhere', async () => {
    const owner = await createTestAccount(app.services.db, app.clock);
    const attacker = fromIp(app.api, '192.0.2.66');
    const attempt = (client: TestClient, password: string) =>
      client.post<LimitedBody>('/auth/login', { email: owner.email, password });
    expect((await attempt(attacker, 'errada-1')).status).toBe(401);
    expect((await attempt(attacker, 'errada-2')).status).toBe(401);
    const locked = await attempt(attacker, 'password-1234');
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('TOO_MANY_LOGIN_ATTEMPTS');
    expect((await attempt(fromIp(app.api, '192.0.2.10'), 'password-1234')).status).toBe(200);
  });

  it('turns away an IP guessing credentials, before looking them up; working credentials still pass', async () => {
    const regular = await createTestAccount(app.services.db, app.clock);
    const newcomer = await createTestAccount(app.services.db, app.clock);
    const guesser = fromIp(app.api, '192.0.2.77');
    // the regular integration behind the same address has worked before
    expect(
      (await guesser.withApiKey(regular.apiKey).post('/data/search', { reference: 'NADA' })).status,
    ).toBe(200);
    // not guesses, never counted: no credential, a valid key on a Bearer-only route
    for (let i = 0; i < 4; i++) {
      expect((await guesser.post('/data/search', { reference: 'NADA' })).status).toBe(401);
      expect((await guesser.withApiKey(regular.apiKey).get('/data/credits/balance')).status).toBe(401);
    }
    const guesses = await statuses(3, () =>
      guesser.withApiKey(`psk_${Math.random()}`).post('/data/search', { reference: 'NADA' }),
    );
    expect(guesses).toEqual([401, 401, 401]);
    const fourth = await guesser.withBearer('pst_guess').get<LimitedBody>('/data/credits/balance');
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ code: 'TOO_MANY_CREDENTIAL_FAILURES', remaining: 0 });
    expect(Number(fourth.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // for the rest of the minute: new credentials are refused from there before any lookup...
    const unseen = await guesser.withApiKey(newcomer.apiKey).post('/data/search', { reference: 'NADA' });
    expect(unseen.status).toBe(429);
    // ...the ones that worked from this process keep working...
    expect(
      (await guesser.withApiKey(regular.apiKey).post('/data/search', { reference: 'NADA' })).status,
    ).toBe(200);
    // ...and everything works from anywhere else
    const elsewhere = fromIp(app.api, '192.0.2.78').withApiKey(newcomer.apiKey);
    expect((await elsewhere.post('/data/search', { reference: 'NADA' })).status).toBe(200);
  });
});

describe('the client address behind a proxy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY: 'true', CREDENTIAL_FAILURES_PER_IP_PER_MINUTE: '2' } });
  });
  afterAll(() => app?.close());

  it('is the X-Forwarded-For entry our proxy appended, whatever the client put before it', async () => {
    const spoofing = (n: number) =>
      app.api
        .with({ 'X-Forwarded-For': `10.0.0.${n}, 198.51.100.50` })
        .withApiKey(`psk_${Math.random()}`)
        .post('/data/search', { reference: 'NADA' });
    expect(await statuses(3, () => spoofing(Math.floor(Math.random() * 250)))).toEqual([401, 401, 429]);
  });
});

describe.skipIf(!TEST_REDIS_URL)('when Redis fails mid-run', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      redis: true,
      env: { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_PER_HOUR: '1000' },
    });
  });
  afterAll(() => app?.close());

  it('keeps limiting with the in-memory insurance limiter and never answers 5xx', async () => {
    const account = await createTestAccount(app.services.db, app.clock);
    const api = app.api.withApiKey(account.apiKey);
    expect(await statuses(3, () => api.post('/data/search', { reference: 'NADA' }))).toEqual([200, 200, 200]);
    const counted = await app.services.redis!.keys(`${app.services.redisPrefix}rl:*`);
    expect(counted.length).toBeGreaterThan(0);

    app.services.redis!.disconnect();
    const after = await statuses(7, () => api.post('/data/search', { reference: 'NADA' }));
    expect(after.every((s) => s < 500)).toBe(true);
    expect(after.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(after.slice(5)).toEqual([429, 429]);
    expect((await app.api.get('/ready', { unchecked: true })).status).toBe(503);
  });
});
