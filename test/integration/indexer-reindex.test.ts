import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { RebuildRequests } from '../../indexer/rebuild-requests.js';
import { FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { ClusterMock, mockClient, type MockRequest } from '../opensearch/mock-cluster.js';

/** npm run reindex's sequence against a mock cluster, reading the fixture from a real database. */
describe('reindex', () => {
  let database: TestDatabase;
  const mock = new ClusterMock();
  const client = mockClient(mock);
  const sent: { call: string; body: unknown; querystring: unknown }[] = [];

  const record = (method: string, path: string, reply: (p: MockRequest) => unknown) =>
    mock.add({ method, path }, (params: MockRequest) => {
      sent.push({
        call: `${method} ${String(params.path)}`,
        body: params.body,
        querystring: params.querystring,
      });
      return reply(params) as Record<string, unknown>;
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    await loadStockFixture(database.handle.db);
    record('GET', '/_cat/indices/:index', () => [{ index: 'stock_v1' }, { index: 'stock_v2' }] as unknown);
    record('PUT', '/stock_v3', () => ({ acknowledged: true }));
    record('POST', '/_bulk', (p) => ({
      took: 1,
      errors: false,
      items: (p.body as unknown as Record<string, { _id: string }>[])
        .filter((l) => l.index)
        .map((l) => ({ index: { _index: 'stock_v3', _id: l.index!._id, status: 201 } })),
    }));
    record('PUT', '/stock_v3/_settings', () => ({ acknowledged: true }));
    record('GET', '/stock_v3/_refresh', () => ({ _shards: { total: 1, successful: 1, failed: 0 } }));
    record('HEAD', '/_alias/stock', () => ({}));
    record('GET', '/_alias/stock', () => ({ stock_v2: { aliases: { stock: {} } } }));
    record('POST', '/_aliases', () => ({ acknowledged: true }));
    record('DELETE', '/stock_v2', () => ({ acknowledged: true }));
  });
  afterAll(() => database.drop());

  it('loads a new index with refresh off and no replicas, restores them, swaps the alias, drops the old index', async () => {
    const progress: number[] = [];
    const result = await rebuildIndex(database.handle.db, client, 'stock', {
      progress: (n) => progress.push(n),
      batchSize: 10,
    });
    expect(result).toEqual({ index: 'stock_v3', documents: FIXTURE_ITEMS.length, removed: ['stock_v2'] });
    const calls = sent.map((s) => s.call);
    const bulks = Math.ceil(FIXTURE_ITEMS.length / 10);
    expect(calls).toEqual([
      'GET /_cat/indices/stock_v*',
      'PUT /stock_v3',
      ...Array<string>(bulks).fill('POST /_bulk'),
      'PUT /stock_v3/_settings',
      'GET /stock_v3/_refresh',
      'HEAD /_alias/stock',
      'GET /_alias/stock',
      'POST /_aliases',
      'DELETE /stock_v2',
    ]);
    const created = sent[1]!.body as { settings: Record<string, unknown>; mappings: { properties: object } };
    expect(created.settings).toMatchObject({ refresh_interval: '-1', number_of_replicas: 0 });
    expect(Object.keys(created.mappings.properties)).toContain('references_norm');
    const bodyOf = (call: string) => sent.find((s) => s.call === call)?.body;
    expect(bodyOf('PUT /stock_v3/_settings')).toEqual({
      index: { refresh_interval: '1s', number_of_replicas: 1 },
    });
    expect(bodyOf('POST /_aliases')).toEqual({
      actions: [
        { remove: { index: 'stock_v2', alias: 'stock' } },
        { add: { index: 'stock_v3', alias: 'stock', is_write_index: true } },
      ],
    });
    // Every item once, in id order, each with its row version as the external version.
    const actions = sent
      .filter((s) => s.call === 'POST /_bulk')
      .flatMap((s) => s.body as Record<string, { _id: string; version: number; version_type: string }>[])
      .filter((l) => l.index)
      .map((l) => l.index!);
    expect(actions.map((a) => Number(a._id))).toEqual(FIXTURE_ITEMS.map((i) => i.id).sort((a, b) => a - b));
    const versions = await sql<{ id: string; version: string }>`
      select id, version from stock_items order by id`.execute(database.handle.db);
    expect(actions.map((a) => [a._id, a.version, a.version_type])).toEqual(
      versions.rows.map((r) => [r.id, Number(r.version), 'external']),
    );
    expect(progress.at(-1)).toBe(FIXTURE_ITEMS.length);
  });

  it('rebuilds on the request a TRUNCATE leaves, once, and then has nothing to do', async () => {
    const logger = pino({ level: 'silent' });
    const requests = new RebuildRequests(database.handle.db, client, 'stock', logger);
    expect(await requests.check()).toBeNull();
    // The outbox is on (the rebuild above enabled it): the stock is replaced wholesale.
    await sql`truncate stock_items cascade`.execute(database.handle.db);
    await sql`insert into stock_items (id, vendor_id, reference, title, condition, price, location_country_code)
              values (5000, 1, 'ONLY-5000', 'Único', 'novo', 10, 'PT')`.execute(database.handle.db);
    sent.length = 0;
    const rebuilt = await requests.check();
    expect(rebuilt).toEqual({ index: 'stock_v3', documents: 1, removed: ['stock_v2'] });
    const bulkIds = sent
      .filter((s) => s.call === 'POST /_bulk')
      .flatMap((s) => s.body as Record<string, { _id: string }>[])
      .filter((l) => l.index)
      .map((l) => l.index!._id);
    expect(bulkIds).toEqual(['5000']);
    expect(sent.map((s) => s.call)).toContain('POST /_aliases');
    expect(await requests.check()).toBeNull();
  });
});
