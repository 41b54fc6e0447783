import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount } from '../helpers/accounts-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { DATABASE_KINDS } from '../helpers/test-env.js';
import { waitFor } from '../helpers/wait-until.js';
import type { ErrorEnvelope } from '../../src/http/error-response.js';
import type {
  AccountAnswer,
  ApiKeyCreatedAnswer,
  ApiKeysAnswer,
  BalanceAnswer,
  LoginAnswer,
} from '../../web/src/api-types.js';

/** POST /auth/register's answer: the account as GET /account shows it. */
type RegisteredAnswer = Pick<AccountAnswer, 'success' | 'account'>;
/** POST /data/auth/register-user's answer: the account and its first key, shown once. */
type RegisteredUserAnswer = RegisteredAnswer & Pick<ApiKeyCreatedAnswer, 'api_key'>;
/** PATCH and DELETE /api-keys/:id answer the key as GET /api-keys lists it. */
type KeyAnswer = { success: true; api_key: ApiKeysAnswer['api_keys'][number] };
/** A refusal: the envelope, with a rate limit's details. */
type ErrorBody = Pick<ErrorEnvelope, 'success' | 'mensagem' | 'code'> & {
  remaining?: number;
  resetAt?: string;
};
/** POST /auth/login's answer: a session, or a refusal. */
type LoginResult = LoginAnswer & Partial<Omit<ErrorBody, 'success'>>;

const PASSWORD = 'uma-palavra-passe-longa';
const LOGIN_WINDOW_SECONDS = 900;
let sequence = 0;
const uniqueEmail = () => `conta${++sequence}.${process.pid}.${Date.now()}@exemplo.pt`;

describe.each(DATABASE_KINDS)('accounts, sessions and API keys on %s', (databaseKind) => {
  let app: TestApp;
  const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));

  beforeAll(async () => {
    app = await startTestApp({
      clock,
      databaseKind,
      env: { LOGIN_FAILURES_PER_WINDOW: '3', LOGIN_FAILURE_WINDOW_SECONDS: String(LOGIN_WINDOW_SECONDS) },
    });
  });
  afterAll(() => app?.close());

  async function register(email = uniqueEmail()) {
    const res = await app.api.post<RegisteredAnswer>('/auth/register', {
      email,
      password: PASSWORD,
      name: 'Oficina',
    });
    expect(res.status).toBe(201);
    return res.body.account;
  }
  async function login(email: string, password = PASSWORD) {
    return app.api.post<LoginResult>('/auth/login', { email, password });
  }
  async function bearerFor(email: string) {
    const res = await login(email);
    expect(res.status).toBe(200);
    return app.api.withBearer(res.body.access_token);
  }
  /** An account's session rows read straight from PostgreSQL (the app's database handle on PGlite). */
  async function sessionRows(accountId: string): Promise<{ row_text: string; token_hash_hex: string }[]> {
    const text = `select s::text as row_text, encode(s.token_hash, 'hex') as token_hash_hex
                    from sessions s where s.account_id = $1`;
    if (!app.database.url) {
      const result = await sql<{ row_text: string; token_hash_hex: string }>`
        select s::text as row_text, encode(s.token_hash, 'hex') as token_hash_hex
          from sessions s where s.account_id = ${accountId}`.execute(app.services.db);
      return result.rows;
    }
    const client = new pg.Client({ connectionString: app.database.url });
    await client.connect();
    try {
      return (await client.query<{ row_text: string; token_hash_hex: string }>(text, [accountId])).rows;
    } finally {
      await client.end();
    }
  }
  async function ledger(accountId: string) {
    return app.services.db
      .selectFrom('credit_ledger')
      .select(['kind', 'delta', 'balance_after'])
      .where('account_id', '=', accountId)
      .execute();
  }

  describe('POST /auth/register', () => {
    it('creates the account with 50 credits and its signup ledger row; the e-mail is trimmed and lower-cased', async () => {
      const email = uniqueEmail();
      const res = await app.api.post<RegisteredAnswer>('/auth/register', {
        email: `  ${email.toUpperCase()} `,
        password: PASSWORD,
      });
      expect(res.status).toBe(201);
      expect(res.body.account).toMatchObject({ email, credits: 50, name: null, daily_credit_limit: null });
      expect(await ledger(res.body.account.id)).toEqual([{ kind: 'signup', delta: 50, balance_after: 50 }]);
    });

    it('answers 409 for an e-mail already taken, whatever its case, and writes nothing', async () => {
      const email = uniqueEmail();
      await register(email);
      const res = await app.api.post<ErrorBody>('/auth/register', {
        email: email.toUpperCase(),
        password: PASSWORD,
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ success: false, code: 'EMAIL_TAKEN' });
      const rows = await app.services.db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', email)
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('rejects a password shorter than 10 characters, a bad e-mail and unknown fields with 400', async () => {
      const short = await app.api.post<ErrorBody>('/auth/register', {
        email: uniqueEmail(),
        password: '123456789',
      });
      expect(short.status).toBe(400);
      expect(short.body.mensagem).toMatch(/corpo\.password.*10 caracteres/);

      const bad = await app.api.post<ErrorBody>('/auth/register', {
        email: 'sem-arroba.pt',
        password: PASSWORD,
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 'INVALID_EMAIL' });
      expect(bad.body.mensagem).toContain('corpo.email');

      const extra = await app.api.post<ErrorBody>('/auth/register', {
        email: uniqueEmail(),
        password: PASSWORD,
        credits: 1000,
      });
      expect(extra.status).toBe(400);
      expect(extra.body.mensagem).toContain('corpo.credits');

      for (const password of [' '.repeat(12), 'aaaaaaaaaaaa', 'abababababab']) {
        const weak = await app.api.post<ErrorBody>('/auth/register', { email: uniqueEmail(), password });
        expect(weak.status, JSON.stringify(password)).toBe(400);
        expect(weak.body.code).toBe('WEAK_PASSWORD');
      }
    });

    it('one account per address however its accents are encoded (Unicode NFC)', async () => {
      const local = `jose${Date.now()}`;
      const composed = `${local}\u00e9@example.com`; // é as one code point
      const decomposed = `${local}e\u0301@example.com`; // e + combining acute accent
      const first = await app.api.post<RegisteredAnswer>('/auth/register', {
        email: decomposed,
        password: PASSWORD,
      });
      expect(first.status).toBe(201);
      expect(first.body.account.email).toBe(composed);
      const second = await app.api.post<ErrorBody>('/auth/register', { email: composed, password: PASSWORD });
      expect(second.status).toBe(409);
    });
  });

  describe('POST /data/auth/register-user', () => {
    it('creates the account (50 credits, ledger row) and a first API key that works at once', async () => {
      const email = uniqueEmail();
      const res = await app.api.post<RegisteredUserAnswer>('/data/auth/register-user', {
        email,
        password: PASSWORD,
      });
      expect(res.status).toBe(201);
      expect(res.body.account).toMatchObject({ email, credits: 50 });
      expect(res.body.api_key.key).toMatch(/^psk_[0-9A-Za-z]{32,}$/);
      expect(await ledger(res.body.account.id)).toEqual([{ kind: 'signup', delta: 50, balance_after: 50 }]);

      const search = await app.api
        .withApiKey(res.body.api_key.key)
        .post('/data/search', { reference: 'NADA-1' });
      expect(search.status).toBe(200);
    });

    it('applies the same validation: duplicate e-mail 409, short password 400', async () => {
      const email = uniqueEmail();
      await register(email);
      const dup = await app.api.post<ErrorBody>('/data/auth/register-user', { email, password: PASSWORD });
      expect(dup.status).toBe(409);
      const short = await app.api.post<ErrorBody>('/data/auth/register-user', {
        email: uniqueEmail(),
        password: 'curta',
      });
      expect(short.status).toBe(400);
    });
  });

  describe('POST /auth/login and /auth/logout', () => {
    it('gives a Bearer token valid for 30 days that opens the Bearer-only endpoints', async () => {
      const email = uniqueEmail();
      await register(email);
      const res = await login(` ${email.toUpperCase()}`);
      expect(res.status).toBe(200);
      expect(res.body.token_type).toBe('Bearer');
      expect(new Date(res.body.expires_at).getTime()).toBe(clock.now().getTime() + 30 * 24 * 3600 * 1000);
      const balance = await app.api.withBearer(res.body.access_token).get('/data/credits/balance');
      expect(balance.status).toBe(200);
    });

    it('answers a wrong password and an unknown e-mail with the same 401 body', async () => {
      const email = uniqueEmail();
      await register(email);
      const wrongPassword = await login(email, 'palavra-errada-123');
      const unknownEmail = await login(uniqueEmail(), 'palavra-errada-123');
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body).toEqual(unknownEmail.body);
      expect(wrongPassword.body.code).toBe('INVALID_CREDENTIALS');
    });

    it('rejects an expired token with 401 TOKEN_EXPIRED once 30 days have passed', async () => {
      const email = uniqueEmail();
      await register(email);
      const bearer = await bearerFor(email);
      clock.advance(30 * 24 * 3600 * 1000 - 1000);
      expect((await bearer.get('/account')).status).toBe(200);
      clock.advance(2000);
      const expired = await bearer.get<ErrorBody>('/account');
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('TOKEN_EXPIRED');
    });

    it('stores a Bearer token only as its SHA-256: the token is in no column of its session', async () => {
      const email = uniqueEmail();
      const account = await register(email);
      const res = await login(email);
      expect(res.status).toBe(200);
      const token = res.body.access_token;
      expect(token.length).toBeGreaterThan(20);
      // the session row as PostgreSQL holds it: every column as text (bytea as hex), and the hash
      const rows = await sessionRows(account.id);
      expect(rows).toHaveLength(1);
      const [row] = rows;
      const stored = row!.row_text.toLowerCase();
      for (const form of [token, Buffer.from(token).toString('hex'), Buffer.from(token).toString('base64')]) {
        expect(stored).not.toContain(form.toLowerCase());
      }
      expect(row!.token_hash_hex).toBe(createHash('sha256').update(token).digest('hex'));
      // and the token is looked up by that hash
      expect((await app.api.withBearer(token).get('/account')).status).toBe(200);
    });

    it('logout revokes the presented token only', async () => {
      const email = uniqueEmail();
      await register(email);
      const first = await bearerFor(email);
      const second = await bearerFor(email);
      expect((await first.post('/auth/logout')).status).toBe(200);
      expect((await first.get<ErrorBody>('/account')).status).toBe(401);
      expect((await second.get('/account')).status).toBe(200);
    });

    it('locks an e-mail out from one IP after the allowed failures, until the window passes', async () => {
      // The window is timed by the app's clock: however long the scrypt checks take on a busy
      // machine, the failures fall in one window, and the test moves the clock past its end.
      const { email } = await createTestAccount(app.services.db, app.clock);
      for (let i = 0; i < 3; i++) expect((await login(email, 'errada-0000')).status).toBe(401);
      const locked = await login(email, 'password-1234');
      expect(locked.status).toBe(429);
      expect(locked.body).toMatchObject({ success: false, code: 'TOO_MANY_LOGIN_ATTEMPTS', remaining: 0 });
      expect(Number(locked.headers.get('retry-after'))).toBe(LOGIN_WINDOW_SECONDS);
      expect(new Date(locked.body.resetAt!).getTime()).toBe(
        clock.now().getTime() + LOGIN_WINDOW_SECONDS * 1000,
      );
      // another e-mail from the same address is not locked
      const other = await createTestAccount(app.services.db, app.clock);
      expect((await login(other.email, 'password-1234')).status).toBe(200);

      clock.advance(LOGIN_WINDOW_SECONDS * 1000 - 1);
      expect((await login(email, 'password-1234')).status).toBe(429);
      clock.advance(1);
      expect((await login(email, 'password-1234')).status).toBe(200);
    });
  });

  describe('GET and PATCH /account', () => {
    it('shows and changes the name and the daily credit limit; null removes the limit', async () => {
      const email = uniqueEmail();
      const created = await register(email);
      const bearer = await bearerFor(email);
      const shown = await bearer.get<AccountAnswer>('/account');
      expect(shown.body.account).toMatchObject({ id: created.id, email, name: 'Oficina', credits: 50 });

      const changed = await bearer.patch<AccountAnswer>('/account', {
        name: 'Peças Lda',
        daily_credit_limit: 25,
      });
      expect(changed.body.account).toMatchObject({ name: 'Peças Lda', daily_credit_limit: 25 });
      const balance = await bearer.get<BalanceAnswer>('/data/credits/balance');
      expect(balance.body.daily_credit_limit).toBe(25);

      const cleared = await bearer.patch<AccountAnswer>('/account', { daily_credit_limit: null });
      expect(cleared.body.account.daily_credit_limit).toBeNull();
    });

    it('rejects bad changes with 400 and API keys with 401', async () => {
      const email = uniqueEmail();
      await register(email);
      const bearer = await bearerFor(email);
      expect((await bearer.patch<ErrorBody>('/account', {})).status).toBe(400);
      expect((await bearer.patch<ErrorBody>('/account', { daily_credit_limit: 0 })).status).toBe(400);
      expect((await bearer.patch<ErrorBody>('/account', { credits: 9999 })).status).toBe(400);

      const keyUser = await app.api.post<RegisteredUserAnswer>('/data/auth/register-user', {
        email: uniqueEmail(),
        password: PASSWORD,
      });
      const withKey = await app.api.withApiKey(keyUser.body.api_key.key).get<ErrorBody>('/account');
      expect(withKey.status).toBe(401);
      expect(withKey.body.code).toBe('BEARER_REQUIRED');
      expect((await app.api.get<ErrorBody>('/account')).status).toBe(401);
    });
  });

  describe('/api-keys', () => {
    it('shows a new key once and stores only its SHA-256 and display prefix', async () => {
      const email = uniqueEmail();
      await register(email);
      const bearer = await bearerFor(email);
      const created = await bearer.post<ApiKeyCreatedAnswer>('/api-keys', {
        name: 'ERP',
        rate_limit_per_minute: 30,
        daily_credit_limit: 100,
      });
      expect(created.status).toBe(201);
      const key = created.body.api_key.key;
      expect(key).toMatch(/^psk_[0-9A-Za-z]{32,}$/);
      expect(key.startsWith(created.body.api_key.prefix)).toBe(true);
      expect(created.body.api_key).toMatchObject({
        name: 'ERP',
        rate_limit_per_minute: 30,
        daily_credit_limit: 100,
      });

      const stored = await app.services.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', created.body.api_key.id)
        .executeTakeFirstOrThrow();
      expect(Buffer.from(stored.key_hash).equals(createHash('sha256').update(key).digest())).toBe(true);
      const storedText = JSON.stringify(stored);
      expect(storedText).not.toContain(key);
      expect(stored.prefix.length).toBeLessThan(key.length / 2);

      const listed = await bearer.get<ApiKeysAnswer>('/api-keys');
      expect(listed.body.api_keys).toHaveLength(1);
      expect(listed.body.api_keys[0]).not.toHaveProperty('key');
      expect(listed.body.api_keys[0]).not.toHaveProperty('key_hash');
      expect(JSON.stringify(listed.body)).not.toContain(key);
    });

    it('records last use, changes name and limits, and revokes with effect on the very next request', async () => {
      const email = uniqueEmail();
      await register(email);
      const bearer = await bearerFor(email);
      const created = await bearer.post<ApiKeyCreatedAnswer>('/api-keys', { name: 'Loja' });
      const { id, key } = created.body.api_key;
      const withKey = app.api.withApiKey(key);
      expect((await withKey.post('/data/search', { reference: 'NADA-2' })).status).toBe(200);
      // last use is recorded after the answer, off the request's path
      await waitFor(
        "the key's last use to be recorded",
        async () => (await bearer.get<ApiKeysAnswer>('/api-keys')).body.api_keys[0]!.last_used_at,
        (lastUsed) => lastUsed !== null,
      );

      const patched = await bearer.patch<KeyAnswer>(`/api-keys/${id}`, {
        name: 'Loja online',
        rate_limit_per_hour: 500,
        daily_credit_limit: null,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.api_key).toMatchObject({
        name: 'Loja online',
        rate_limit_per_hour: 500,
        daily_credit_limit: null,
      });

      const blank = await bearer.patch<ErrorBody>(`/api-keys/${id}`, { name: '   ' });
      expect(blank.status).toBe(400);
      expect(blank.body.mensagem).toContain('corpo.name');
      const trimmed = await bearer.post<ApiKeyCreatedAnswer>('/api-keys', { name: '  Armazém  ' });
      expect(trimmed.body.api_key.name).toBe('Armazém');

      const revoked = await bearer.delete<KeyAnswer>(`/api-keys/${id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.api_key.revoked_at).not.toBeNull();
      // a revoked key is final: revoking again changes nothing, editing it is a 404
      const again = await bearer.delete<KeyAnswer>(`/api-keys/${id}`);
      expect(again.body.api_key.revoked_at).toBe(revoked.body.api_key.revoked_at);
      const edit = await bearer.patch<ErrorBody>(`/api-keys/${id}`, { name: 'Ressuscitada' });
      expect(edit.status).toBe(404);
      expect(edit.body.code).toBe('API_KEY_NOT_FOUND');
      const after = await withKey.post<ErrorBody>('/data/search', { reference: 'NADA-2' });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('INVALID_API_KEY');
    });

    it("answers 404 for another account's key and 400 for a non-numeric id, changing nothing", async () => {
      const owner = uniqueEmail();
      await register(owner);
      const ownerBearer = await bearerFor(owner);
      const key = (await ownerBearer.post<ApiKeyCreatedAnswer>('/api-keys', { name: 'Minha' })).body.api_key;

      const intruder = uniqueEmail();
      await register(intruder);
      const intruderBearer = await bearerFor(intruder);
      const patch = await intruderBearer.patch<ErrorBody>(`/api-keys/${key.id}`, { name: 'Roubada' });
      expect(patch.status).toBe(404);
      expect(patch.body.code).toBe('API_KEY_NOT_FOUND');
      expect((await intruderBearer.delete<ErrorBody>(`/api-keys/${key.id}`)).status).toBe(404);
      expect((await intruderBearer.get<ApiKeysAnswer>('/api-keys')).body.api_keys).toEqual([]);
      expect((await intruderBearer.delete<ErrorBody>('/api-keys/abc')).status).toBe(400);

      const still = (await ownerBearer.get<ApiKeysAnswer>('/api-keys')).body.api_keys[0]!;
      expect(still).toMatchObject({ name: 'Minha', revoked_at: null });
      expect((await app.api.withApiKey(key.key).post('/data/search', { reference: 'NADA-3' })).status).toBe(
        200,
      );
    });

    it('is Bearer only: an API key gets 401', async () => {
      const res = await app.api.post<RegisteredUserAnswer>('/data/auth/register-user', {
        email: uniqueEmail(),
        password: PASSWORD,
      });
      const withKey = app.api.withApiKey(res.body.api_key.key);
      expect((await withKey.get<ErrorBody>('/api-keys')).status).toBe(401);
      expect((await withKey.post<ErrorBody>('/api-keys', { name: 'x' })).status).toBe(401);
    });

    it('without a credential, or with an unknown token: 401, and no key is created', async () => {
      const keysBefore = await app.services.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      for (const client of [app.api, app.api.withBearer('pst_desconhecido')]) {
        const created = await client.post<ErrorBody>('/api-keys', { name: 'anónima' });
        expect(created.status).toBe(401);
        expect(created.body).toMatchObject({ success: false });
        expect(created.body.mensagem.length).toBeGreaterThan(0);
        expect(created.body).not.toHaveProperty('api_key');
        expect((await client.get<ErrorBody>('/api-keys')).status).toBe(401);
      }
      const keysAfter = await app.services.db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(keysAfter.n)).toBe(Number(keysBefore.n));
    });
  });
});
