import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

interface Body {
  success: boolean;
  code?: string;
  mensagem?: string;
  account?: { email: string };
}

/** Password hashing is real here (scrypt N=2^17, as in production): that work is what is bounded. */
describe('password hashing is bounded work', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'true', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' },
    });
  });
  afterAll(() => app?.close());

  it('answers logins past the hashing queue with 503 PASSWORD_WORK_BUSY and Retry-After', async () => {
    // registered through the API, so its stored hash has the production cost: a test account's
    // cheap hash is verified in a millisecond, and logins that never overlap never fill the queue
    const account = { email: `dona.${Date.now()}@exemplo.pt`, password: 'password-1234' };
    const registered = await app.api
      .with({ 'X-Forwarded-For': '198.18.9.1' })
      .post('/auth/register', account);
    expect(registered.status).toBe(201);
    // from many addresses, so no per-IP guard stands in the way: only the hashing bound
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.api
          .with({ 'X-Forwarded-For': `198.18.0.${i + 1}` })
          .post<Body>('/auth/login', { email: account.email, password: `errada-${i}` }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.every((s) => s === 401 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
    const busy = attempts.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const refused of busy) {
      expect(refused.body).toMatchObject({ success: false, code: 'PASSWORD_WORK_BUSY' });
      expect(refused.body.mensagem).toMatch(/Tente novamente/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // the queue empties: the owner logs in afterwards
    const login = await app.api.with({ 'X-Forwarded-For': '198.18.1.1' }).post('/auth/login', account);
    expect(login.status).toBe(200);
  });

  it('an unknown e-mail takes its turn of the same bounded hashing as a wrong password (nothing to time)', async () => {
    // Were an unknown e-mail answered without hashing, its 401 would come at once and tell that the
    // address has no account; it waits for scrypt like any login, so a burst of them fills the queue.
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.api.with({ 'X-Forwarded-For': `198.18.4.${i + 1}` }).post<Body>('/auth/login', {
          email: `ninguem.${i}.${Date.now()}@exemplo.pt`,
          password: `errada-${i}`,
        }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(1);
    const busy = attempts.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThanOrEqual(1);
    for (const refused of busy) expect(refused.body.code).toBe('PASSWORD_WORK_BUSY');
    for (const answered of attempts.filter((a) => a.status === 401)) {
      expect(answered.body.code).toBe('INVALID_CREDENTIALS');
    }
  });

  it('answers a taken e-mail 409 before any hashing: probes never wait for, nor fill, the queue', async () => {
    const email = `sondado.${Date.now()}@exemplo.pt`;
    const first = await app.api
      .with({ 'X-Forwarded-For': '198.18.2.1' })
      .post<Body>('/auth/register', { email, password: 'palavra-passe-longa' });
    expect(first.status).toBe(201);
    const probes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.api
          .with({ 'X-Forwarded-For': `198.18.3.${i + 1}` })
          .post<Body>('/auth/register', { email: email.toUpperCase(), password: 'palavra-passe-longa' }),
      ),
    );
    expect(probes.map((p) => p.status)).toEqual(Array(10).fill(409));
    expect(probes[0]!.body.code).toBe('EMAIL_TAKEN');
  });
});
