import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveSearchTokenSecret } from '../../src/config.js';

describe('config', () => {
  it('defaults to the embedded shape', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.redisUrl).toBeNull();
    expect(config.searchEngine).toBe('postgres');
    expect(config.seedDemoData).toBe(true);
    expect(config.rateLimits.perMinute).toBe(60);
    expect(config.rateLimits.perHour).toBe(1000);
    expect(config.databasePreparedStatements).toBe(200);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: '0' }).databasePreparedStatements).toBe(0);
  });

  it.each([
    [{ PORT: 'abc' }, /^Configuração inválida: PORT deve ser um número inteiro \(recebido: "abc"\)$/],
    [{ PORT: '70000' }, /PORT deve ser no máximo 65535/],
    [{ SEARCH_ENGINE: 'solr' }, /SEARCH_ENGINE deve ser um de: postgres, opensearch/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL tem formato inválido/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL deve ser um de/],
    [{ SEARCH_TOKEN_SECRET: 'short' }, /SEARCH_TOKEN_SECRET deve ter pelo menos 32 caracteres/],
    [{ SEARCH_ENGINE: 'opensearch' }, /OPENSEARCH_URL é obrigatório/],
    [{ DATABASE_PREPARED_STATEMENTS: '-1' }, /DATABASE_PREPARED_STATEMENTS deve ser no mínimo 0/],
  ])('rejects %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('stops the process with that one line on a bad value', async () => {
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync('npx', ['tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'nope', DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(
      result.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('npm warn')),
    ).toEqual(['Configuração inválida: PORT deve ser um número inteiro (recebido: "nope")']);
  });

  it('keeps one generated search-token secret in the data dir (embedded)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pss-config-'));
    const config = loadConfig({ DATA_DIR: dir });
    const first = resolveSearchTokenSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveSearchTokenSecret(config)).toBe(first);
    expect(readFileSync(join(dir, 'search-token.secret'), 'utf8').trim()).toBe(first);
  });

  it('requires SEARCH_TOKEN_SECRET with an external database', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://localhost/x' });
    expect(() => resolveSearchTokenSecret(config)).toThrow(/SEARCH_TOKEN_SECRET é obrigatório/);
  });

  it('chooses the payment provider: sandbox embedded, none with a database, Stripe with its keys', () => {
    const DB = { DATABASE_URL: 'postgres://localhost/x' };
    const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' };
    expect(loadConfig({}).payments).toEqual({ provider: 'sandbox' });
    expect(loadConfig(DB).payments).toBeNull();
    expect(loadConfig({ ...DB, PAYMENT_PROVIDER: 'sandbox' }).payments).toEqual({ provider: 'sandbox' });
    expect(loadConfig({ PAYMENT_PROVIDER: 'none' }).payments).toBeNull();
    expect(loadConfig({ ...DB, ...STRIPE }).payments).toEqual({
      provider: 'stripe',
      secretKey: 'sk_test_123',
      webhookSecret: 'whsec_123',
      apiBase: null,
    });
    expect(loadConfig({ ...STRIPE, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).payments).toMatchObject({
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 12111 },
    });
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
      /^Configuração inválida: STRIPE_WEBHOOK_SECRET é obrigatório quando PAYMENT_PROVIDER=stripe$/,
    );
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'paypal' })).toThrow(/PAYMENT_PROVIDER deve ser um de/);
  });

  it('refuses the retired generic provider with one line naming its replacement', () => {
    expect(() =>
      loadConfig({
        PAYMENT_CHECKOUT_URL: 'https://pay.example.com',
        PAYMENT_WEBHOOK_SECRET: '0123456789abcdef',
      }),
    ).toThrow(
      /^Configuração inválida: PAYMENT_CHECKOUT_URL e PAYMENT_WEBHOOK_SECRET foram retirados .*PAYMENT_PROVIDER=stripe/,
    );
    expect(() => loadConfig({ PAYMENT_WEBHOOK_SECRET: 'x' })).toThrow(/PAYMENT_WEBHOOK_SECRET foi retirado/);
  });
});
