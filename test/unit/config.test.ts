import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveSearchTokenSecret } from '../../src/config.js';
import { createTestCa } from '../helpers/tls-front.js';

/** `src/main.ts` started with `env` over this process's: its exit status and its stderr's lines. */
function startWith(env: Record<string, string>) {
  const result = spawnSync('npx', ['tsx', 'src/main.ts'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return {
    status: result.status,
    stderr: result.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('npm warn')),
  };
}
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
    // the index's own number of shards (mappings/stock.json) unless one is asked for
    expect(config.opensearchShards).toBeNull();
    expect(loadConfig({ OPENSEARCH_SHARDS: '4' }).opensearchShards).toBe(4);
    // a feed's body is read as fast as it comes unless paced, in MB a second
    expect(config.feeds.maxUploadBytesPerSecond).toBe(0);
    expect(loadConfig({ FEEDS_MAX_UPLOAD_MB_PER_SECOND: '16' }).feeds.maxUploadBytesPerSecond).toBe(
      16 * 2 ** 20,
    );
    expect(
      loadConfig({ FEEDS_MAX_UPLOAD_MB_PER_SECOND: '1', FEED_MAX_MB: '200' }).feeds.maxUploadBytesPerSecond,
    ).toBe(2 ** 20);
    // a JSON body has 30 s to arrive, an upload an hour: at 1 MB/s the largest feed fits in it
    expect([config.bodyTimeoutSeconds, config.uploadTimeoutSeconds]).toEqual([30, 3_600]);
    expect(loadConfig({ FEEDS_MAX_UPLOAD_MB_PER_SECOND: '1' }).feeds.maxUploadBytesPerSecond).toBe(2 ** 20);
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
    [{ OPENSEARCH_SHARDS: '0' }, /OPENSEARCH_SHARDS deve ser no mínimo 1/],
    [{ FEEDS_NICE: '20' }, /FEEDS_NICE deve ser no máximo 19/],
    [{ FEEDS_MAX_LINES_PER_SECOND: '-1' }, /FEEDS_MAX_LINES_PER_SECOND deve ser no mínimo 0/],
    [{ FEEDS_MAX_UPLOAD_MB_PER_SECOND: '1.5' }, /FEEDS_MAX_UPLOAD_MB_PER_SECOND deve ser um número inteiro/],
    [{ BODY_TIMEOUT_SECONDS: '0' }, /BODY_TIMEOUT_SECONDS deve ser no mínimo 1/],
    [{ UPLOAD_TIMEOUT_SECONDS: '100000' }, /UPLOAD_TIMEOUT_SECONDS deve ser no máximo 86400/],
    // the default FEED_MAX_MB of 256 at 1 MB/s: 256 s, past the 240 (80 %) of a 300 s upload
    [
      { FEEDS_MAX_UPLOAD_MB_PER_SECOND: '1', UPLOAD_TIMEOUT_SECONDS: '300' },
      /um feed de 256 MB \(FEED_MAX_MB\) levaria 256 s a chegar, .* use pelo menos 2 MB\/s/,
    ],
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
    expect(startWith({ PORT: 'nope', DATABASE_URL: '' })).toEqual({
      status: 1,
      stderr: ['Configuração inválida: PORT deve ser um número inteiro (recebido: "nope")'],
    });
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

  describe('the OpenSearch cluster: nodes, credentials, CA', () => {
    const fails = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).not.toContain('\n');
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };

    it('keeps one URL without credentials as it was', () => {
      expect(loadConfig({}).opensearch).toBeNull();
      expect(loadConfig({ OPENSEARCH_URL: 'http://127.0.0.1:9200' }).opensearch).toEqual({
        nodes: ['http://127.0.0.1:9200'],
        auth: null,
        ca: null,
        caFile: null,
        rejectUnauthorized: true,
      });
    });

    it('takes a comma-separated list of nodes', () => {
      expect(
        loadConfig({
          OPENSEARCH_URL: 'http://10.0.0.1:9200, http://10.0.0.2:9200/,http://os-3.internal:9200',
        }).opensearch!.nodes,
      ).toEqual(['http://10.0.0.1:9200', 'http://10.0.0.2:9200', 'http://os-3.internal:9200']);
    });

    it.each([
      ['http://10.0.0.1:9200,10.0.0.2:9200', /OPENSEARCH_URL tem um endereço inválido: "10.0.0.2:9200"/],
      ['http://10.0.0.1:9200,,http://10.0.0.2:9200', /OPENSEARCH_URL tem um endereço inválido: ""/],
      ['ftp://10.0.0.1', /OPENSEARCH_URL tem um endereço inválido: "ftp:\/\/10.0.0.1"/],
      ['http://a:9200,https://b:9200', /mistura endereços http:\/\/ e https:\/\//],
      ['http://a:9200,http://a:9200/', /"http:\/\/a:9200" mais de uma vez/],
      ['https://u:p@a:9200,https://b:9200', /credenciais diferentes/],
      ['https://u@a:9200', /utilizador sem senha/],
    ])('refuses OPENSEARCH_URL=%s naming the bad address', (url, message) => {
      expect(fails({ OPENSEARCH_URL: url })).toMatch(message);
    });

    it('never echoes a password back', () => {
      expect(fails({ OPENSEARCH_URL: 'https://u:hunter2@a:9200,b' })).not.toContain('hunter2');
      expect(fails({ OPENSEARCH_URL: 'https://u:hunter2@a:9200,https://b:9200' })).not.toContain('hunter2');
    });

    it('takes basic credentials from OPENSEARCH_USERNAME/PASSWORD or from the URLs, not both', () => {
      const base = { OPENSEARCH_URL: 'https://a:9200,https://b:9200' };
      expect(
        loadConfig({ ...base, OPENSEARCH_USERNAME: 'api', OPENSEARCH_PASSWORD: 's3cr:et' }).opensearch!.auth,
      ).toEqual({
        username: 'api',
        password: 's3cr:et',
      });
      const inUrls = loadConfig({
        OPENSEARCH_URL: 'https://api:s%40cret@a:9200,https://api:s%40cret@b:9200',
      }).opensearch!;
      expect(inUrls).toMatchObject({
        nodes: ['https://a:9200', 'https://b:9200'],
        auth: { username: 'api', password: 's@cret' },
      });
      expect(fails({ ...base, OPENSEARCH_USERNAME: 'api' })).toMatch(
        /OPENSEARCH_USERNAME e OPENSEARCH_PASSWORD definem-se juntos/,
      );
      expect(fails({ ...base, OPENSEARCH_PASSWORD: 'x' })).toMatch(/definem-se juntos/);
      expect(
        fails({
          OPENSEARCH_URL: 'https://api:x@a:9200',
          OPENSEARCH_USERNAME: 'api',
          OPENSEARCH_PASSWORD: 'x',
        }),
      ).toMatch(/use só um dos dois/);
    });

    it('reads the CA at start: a missing, unreadable or non-PEM file stops the start', () => {
      const ca = createTestCa();
      try {
        const https = { OPENSEARCH_URL: 'https://a:9200' };
        const settings = loadConfig({ ...https, OPENSEARCH_CA_FILE: ca.caFile }).opensearch!;
        expect(settings.ca).toContain('-----BEGIN CERTIFICATE-----');
        expect(settings.caFile).toBe(ca.caFile);
        expect(fails({ ...https, OPENSEARCH_CA_FILE: join(ca.dir, 'nope.pem') })).toBe(
          `Configuração inválida: OPENSEARCH_CA_FILE não existe: ${join(ca.dir, 'nope.pem')}`,
        );
        expect(fails({ ...https, OPENSEARCH_CA_FILE: ca.dir })).toMatch(
          /OPENSEARCH_CA_FILE não pode ser lido: .* \(EISDIR\)/,
        );
        const notPem = join(ca.dir, 'not.pem');
        writeFileSync(notPem, 'hello');
        expect(fails({ ...https, OPENSEARCH_CA_FILE: notPem })).toMatch(/não contém um certificado PEM/);
        writeFileSync(notPem, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
        expect(fails({ ...https, OPENSEARCH_CA_FILE: notPem })).toMatch(/não contém um certificado PEM/);
        if (process.getuid?.() !== 0) {
          chmodSync(ca.caFile, 0o000);
          expect(fails({ ...https, OPENSEARCH_CA_FILE: ca.caFile })).toMatch(/não pode ser lido: .*EACCES/);
        }
        expect(fails({ OPENSEARCH_URL: 'http://a:9200', OPENSEARCH_CA_FILE: ca.caFile })).toMatch(
          /OPENSEARCH_CA_FILE só serve com endereços https:\/\//,
        );
      } finally {
        ca.remove();
      }
    });

    it('checks certificates unless OPENSEARCH_TLS_REJECT_UNAUTHORIZED=false', () => {
      const https = { OPENSEARCH_URL: 'https://a:9200' };
      expect(loadConfig(https).opensearch!.rejectUnauthorized).toBe(true);
      expect(
        loadConfig({ ...https, OPENSEARCH_TLS_REJECT_UNAUTHORIZED: 'true' }).opensearch!.rejectUnauthorized,
      ).toBe(true);
      expect(
        loadConfig({ ...https, OPENSEARCH_TLS_REJECT_UNAUTHORIZED: 'false' }).opensearch!.rejectUnauthorized,
      ).toBe(false);
      expect(fails({ ...https, OPENSEARCH_TLS_REJECT_UNAUTHORIZED: 'no' })).toMatch(
        /OPENSEARCH_TLS_REJECT_UNAUTHORIZED deve ser true ou false/,
      );
    });

    it('stops the API at start on a missing CA file, with one line', async () => {
      expect(
        startWith({
          DATABASE_URL: '',
          SEARCH_ENGINE: 'opensearch',
          OPENSEARCH_URL: 'https://127.0.0.1:9,https://127.0.0.1:10',
          OPENSEARCH_CA_FILE: '/nonexistent/ca.pem',
        }),
      ).toEqual({
        status: 1,
        stderr: ['Configuração inválida: OPENSEARCH_CA_FILE não existe: /nonexistent/ca.pem'],
      });
    });
  });
});
