import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterClient } from '../../indexer/cluster.js';
import { ManualClock } from '../../src/clock.js';
import { loadConfig, type ClusterConnection } from '../../src/config.js';
import { DependencyUnavailableError } from '../../src/errors.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import { createTestAccount } from '../helpers/accounts-fixture.js';
import { dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { runScript } from '../helpers/run-script.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { createTestCa, TlsFront, type TestCa } from '../helpers/tls-front.js';
import { rebuildIndex } from '../../indexer/rebuild.js';

const USERNAME = 'pss-api';
const PASSWORD = 'a secret: with spaces & symbols';

/**
 * A cluster behind TLS and basic authentication, from the configuration (OPENSEARCH_URL https://…,
 * OPENSEARCH_CA_FILE, OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD): the API's engine, the indexer's
 * client and `index:verify` all trust the configured CA and send the credentials on every request.
 *
 * The local distribution has no security plugin (the minimal integ-test-zip: no
 * opensearch-security), so the secured front here is a stand-in (test/helpers/tls-front.ts): TLS
 * with a certificate of a CA the test makes with openssl, a 401 without the right credentials,
 * and the real cluster behind it. It tests our client's configuration, not the plugin.
 */
describe.skipIf(!TEST_OPENSEARCH_URL)(
  'a cluster behind TLS and basic authentication (a stand-in front)',
  () => {
    let ca: TestCa;
    let otherCa: TestCa;
    let front: TlsFront;
    let app: TestApp;
    const alias = uniqueAlias('secured');
    const env = () => ({
      OPENSEARCH_URL: front.url,
      OPENSEARCH_USERNAME: USERNAME,
      OPENSEARCH_PASSWORD: PASSWORD,
      OPENSEARCH_CA_FILE: ca.caFile,
      OPENSEARCH_INDEX: alias,
    });
    const connection = (): ClusterConnection => loadConfig(env()).opensearch!;

    beforeAll(async () => {
      ca = createTestCa();
      otherCa = createTestCa();
      front = await TlsFront.start(TEST_OPENSEARCH_URL!, ca, USERNAME, PASSWORD);
      app = await startTestApp({ env: { SEARCH_ENGINE: 'opensearch', STATS_CACHE_SECONDS: '0', ...env() } });
      await loadStockFixture(app.services.db);
      // the indexer's client, built from the same configuration, writes the index through the front
      const admin = createClusterClient(connection());
      try {
        await rebuildIndex(app.services.db, admin, alias);
      } finally {
        await admin.close();
      }
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await front?.close();
      const direct = createClusterClient(TEST_OPENSEARCH_URL!);
      await dropAlias(direct, alias).catch(() => undefined);
      await direct.close();
      ca?.remove();
      otherCa?.remove();
    });

    it('the API searches through it: every request over TLS, with the credentials', async () => {
      const account = await createTestAccount(app.services.db, new ManualClock(new Date()), { credits: 100 });
      const before = front.requests.length;
      const answer = await app.api.withApiKey(account.apiKey).post('/data/search', { part_id: 7 });
      expect(answer.status).toBe(200);
      expect((answer.body as { credits_spent: number }).credits_spent).toBe(1);
      expect(
        (await app.api.withApiKey(account.apiKey).post('/data/search/stats', { part_id: 7 })).status,
      ).toBe(200);
      expect((await app.api.get('/ready', { unchecked: true })).status).toBe(200);
      const seen = front.requests.slice(before);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((r) => r.authorized)).toBe(true);
      // the whole rebuild went through it too, authenticated
      expect(front.requests.filter((r) => r.path.includes('_bulk')).length).toBeGreaterThan(0);
      expect(front.requests.every((r) => r.authorized)).toBe(true);
    });

    it.skipIf(!TEST_DATABASE_URL)(
      'index:verify runs through it from the same variables',
      { timeout: 60_000 },
      async () => {
        const run = await runScript('../indexer/verify-cli.ts', [], {
          ...env(),
          DATABASE_URL: app.database.url!,
          LOG_LEVEL: 'warn',
        });
        expect(run.code, run.stdout + run.stderr).toBe(0);
      },
    );

    it('refuses a certificate the configured CA did not issue, and one checked against the public CAs', async () => {
      for (const settings of [
        { ...connection(), ca: null },
        loadConfig({ ...env(), OPENSEARCH_CA_FILE: otherCa.caFile }).opensearch!,
      ]) {
        const engine = OpenSearchEngine.connect(settings, { index: alias, budgetMs: 3_000 });
        try {
          const refused = await engine.ping().then(
            () => null,
            (error: unknown) => error,
          );
          expect(refused).toBeInstanceOf(DependencyUnavailableError);
          expect(String((refused as DependencyUnavailableError).cause)).toMatch(/certificate/i);
        } finally {
          await engine.close();
        }
      }
    });

    it('OPENSEARCH_TLS_REJECT_UNAUTHORIZED=false accepts any certificate (and is only ever asked for)', async () => {
      expect(connection().rejectUnauthorized).toBe(true);
      const settings = loadConfig({
        ...env(),
        OPENSEARCH_CA_FILE: '',
        OPENSEARCH_TLS_REJECT_UNAUTHORIZED: 'false',
      }).opensearch!;
      expect(settings.rejectUnauthorized).toBe(false);
      const engine = OpenSearchEngine.connect(settings, { index: alias, budgetMs: 3_000 });
      try {
        await engine.ping();
      } finally {
        await engine.close();
      }
    });

    it('sends the credentials given inside the URL, and is refused without them', async () => {
      const url = new URL(front.url);
      url.username = encodeURIComponent(USERNAME);
      url.password = encodeURIComponent(PASSWORD);
      const inUrl = loadConfig({
        ...env(),
        OPENSEARCH_URL: url.toString(),
        OPENSEARCH_USERNAME: '',
        OPENSEARCH_PASSWORD: '',
      }).opensearch!;
      expect(inUrl.nodes).toEqual([front.url]);
      expect(inUrl.auth).toEqual({ username: USERNAME, password: PASSWORD });
      const engine = OpenSearchEngine.connect(inUrl, { index: alias, budgetMs: 3_000 });
      await engine.ping().finally(() => engine.close());

      const before = front.requests.length;
      const anonymous = OpenSearchEngine.connect(
        { ...connection(), auth: null },
        { index: alias, budgetMs: 3_000 },
      );
      await expect(anonymous.ping().finally(() => anonymous.close())).rejects.toThrow();
      expect(front.requests.slice(before).map((r) => r.authorized)).toEqual([false]);
    });
  },
);
