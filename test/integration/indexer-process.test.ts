import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexQueue } from '../../indexer/worker.js';
import { loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers/test-env.js';

/**
 * `npm run indexer` as a process: a change in Postgres reaches the cluster (a small HTTP fake that
 * records bulk requests), the metrics endpoint answers, SIGTERM ends it cleanly.
 */
describe.skipIf(!TEST_DATABASE_URL || !TEST_REDIS_URL)('indexer process', () => {
  let database: TestDatabase;
  let cluster: Server;
  let child: ChildProcess;
  let output = '';
  const bulks: string[] = [];
  const alias = `proc_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    cluster = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.method === 'HEAD' && req.url === `/_alias/${alias}`) return void res.writeHead(200).end();
        if (req.method === 'GET' && req.url === `/_alias/${alias}`) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ [`${alias}_v1`]: { aliases: { [alias]: {} } } }));
        }
        if (req.method === 'POST' && req.url?.startsWith('/_bulk')) {
          bulks.push(body);
          const lines = body.split('\n').filter(Boolean);
          const items = lines
            .map((l) => JSON.parse(l) as Record<string, { _id?: string }>)
            .filter((l) => l.index || l.delete)
            .map((l) =>
              l.index
                ? { index: { _id: l.index._id, status: 201 } }
                : { delete: { _id: l.delete!._id, status: 200 } },
            );
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ took: 1, errors: false, items }));
        }
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => cluster.listen(0, '127.0.0.1', r));
    const port = (cluster.address() as AddressInfo).port;
    // One process (no npx/tsx wrapper in between), so SIGTERM reaches the indexer itself.
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'indexer/main.ts', '--metrics-port', '0', '--log-every', '1'],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: database.url!,
          REDIS_URL: TEST_REDIS_URL!,
          OPENSEARCH_URL: `http://127.0.0.1:${port}`,
          OPENSEARCH_INDEX: alias,
        },
        stdio: 'pipe',
      },
    );
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await waitFor(() => output.includes('indexer started'), 'start');
  }, 60_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    cluster?.close();
    const url = new URL(TEST_REDIS_URL!);
    const queue = createIndexQueue(
      { host: url.hostname, port: Number(url.port || 6379) },
      { prefix: `bull-${alias}` },
    );
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    await database?.drop();
  });

  async function waitFor(check: () => boolean, what: string, ms = 20_000) {
    const until = Date.now() + ms;
    while (!check()) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}; output:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('indexes a change, logs its progress figures, and stops on SIGTERM', async () => {
    await sql`update stock_items set price = 99 where id = 6`.execute(database.handle.db);
    await waitFor(() => bulks.some((b) => b.includes('"_id":"6"')), 'the bulk request');
    const bulk = bulks.find((b) => b.includes('"_id":"6"'))!.split('\n');
    const { version } = await database.handle.db
      .selectFrom('stock_items')
      .select('version')
      .where('id', '=', '6')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(bulk[0]!)).toEqual({
      index: { _index: alias, _id: '6', version: Number(version), version_type: 'external' },
    });
    expect(JSON.parse(bulk[1]!)).toMatchObject({ id: 6, price: 99 });
    await waitFor(() => output.includes('"outboxPending"'), 'a progress line');
    expect(output).toMatch(/"docsPerSecond":/);
    const metricsPort = Number(/"metricsPort":(\d+)/.exec(output)?.[1]);
    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(scraped).toMatch(/^search_indexer_documents_indexed_total [1-9]/m);
    expect(scraped).toMatch(/^search_outbox_lag_seconds \d/m);
    expect(scraped).toMatch(/^process_resident_memory_bytes /m);
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('indexer stopped');
  }, 60_000);
});
