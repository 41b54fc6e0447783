import { errors } from '@opensearch-project/opensearch';
import { ClusterMock, mockClient, type MockRequest } from '../opensearch/mock-cluster.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { DependencyUnavailableError } from '../../src/http/errors.js';
import { QueryNotSupportedError, type StockDocument } from '../../src/search/engine.js';
import { OpenSearchEngine } from '../../src/search/opensearch-engine.js';
import { swapAlias } from '../../indexer/index-admin.js';
import { writeBatch } from '../../indexer/cluster.js';

/** Request-level tests: the exact bodies sent to the cluster, and how the answers are read. */
const mock = new ClusterMock();
const client = mockClient(mock);
const engine = new OpenSearchEngine(client, { index: 'stock' });
const sent: { method: string; path: string; body: unknown }[] = [];

function answer(method: string | string[], path: string, reply: () => unknown) {
  mock.add({ method, path }, (params: MockRequest) => {
    sent.push({ method: String(params.method), path: String(params.path), body: params.body });
    return reply() as Record<string, unknown>;
  });
}

const source = {
  id: 4,
  reference: 'TRW DF4294',
  references_norm: ['TRWDF4294', '1K0615301AA', 'DF4294S'],
  xref_group_id: null,
  references: [
    { reference: '1K0 615 301 AA', kind: 'oem', brand: 'VW' },
    { reference: 'DF 4294 S', kind: 'aftermarket', brand: 'TRW' },
  ],
  xref_references: [],
  title: 'Disque de frein avant',
  description: '',
  part_id: 3,
  condition: 'recondicionado',
  is_oem: false,
  is_aftermarket: true,
  price: 49.99,
  currency: 'EUR',
  vendor_id: 4,
  vendor_name: 'Pièces Lyon',
  country_code: 'FR',
  vehicle_make: 'Volkswagen',
  vehicle_model: 'Golf VII',
  vehicle_variant: null,
  quantity: 1,
  updated_at: '2026-11-01T10:00:00.000Z',
};
const stats = (count: number, min: number, max: number, avg: number) => ({
  count,
  min,
  max,
  avg,
  sum: avg * count,
});
const statsAggs = {
  price: stats(3, 40, 60, 50.004),
  sellers: { value: 2 },
  by_condition: {
    buckets: [
      { key: 'novo', doc_count: 2, price: stats(2, 40, 60, 50) },
      { key: 'recondicionado', doc_count: 1, price: stats(1, 50, 50, 50) },
    ],
  },
};

beforeEach(() => {
  mock.clearAll();
  sent.length = 0;
});

const STATS_AGGS = {
  price: { stats: { field: 'price' } },
  sellers: { cardinality: { field: 'vendor_id', precision_threshold: 40_000 } },
  by_condition: { terms: { field: 'condition', size: 10 }, aggs: { price: { stats: { field: 'price' } } } },
};

describe('OpenSearch engine: search requests', () => {
  it('sends one search: bool filter per field, price then id order, page window, exact total, stats aggregations', async () => {
    answer('POST', '/stock/_search', () => ({
      hits: { total: { value: 3, relation: 'eq' }, hits: [{ _id: '4', _source: source }] },
      aggregations: statsAggs,
    }));
    const result = await engine.search(
      {
        reference: 'df-4294 s',
        vehicleMake: 'VOLKSWÁGEN',
        vehicleModel: 'Golf',
        partId: 3,
        condition: 'recondicionado',
        isOem: false,
        isAftermarket: true,
        country: 'FR',
        priceMin: 10,
        priceMax: 100,
      },
      { page: 2, perPage: 20 },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toEqual({
      query: {
        bool: {
          filter: [
            { term: { references_norm: 'df4294s' } },
            { term: { vehicle_make: 'volkswagen' } },
            {
              bool: {
                should: [{ term: { vehicle_model: 'golf' } }, { prefix: { vehicle_model: 'golf ' } }],
                minimum_should_match: 1,
              },
            },
            { term: { part_id: 3 } },
            { term: { condition: 'recondicionado' } },
            { term: { is_oem: false } },
            { term: { is_aftermarket: true } },
            { term: { country_code: 'FR' } },
            { range: { price: { gte: 10, lte: 100 } } },
          ],
        },
      },
      sort: [{ price: { order: 'asc' } }, { id: { order: 'asc' } }],
      from: 20,
      size: 20,
      track_total_hits: true,
      aggs: STATS_AGGS,
    });
    expect(result.total).toBe(3);
    expect(result.items[0]).toMatchObject({
      id: 4,
      matchedReference: 'DF 4294 S',
      vendorName: 'Pièces Lyon',
    });
    expect(result.stats).toEqual({
      totalResults: 3,
      priceMin: 40,
      priceMax: 60,
      priceAvg: 50,
      totalSellers: 2,
      byCondition: {
        novo: { count: 2, priceMin: 40, priceMax: 60, priceAvg: 50 },
        recondicionado: { count: 1, priceMin: 50, priceMax: 50, priceAvg: 50 },
      },
    });
  });

  it('text: every folded word required, the last as a prefix, over title + description; language sub-fields rank; relevance first', async () => {
    answer('POST', '/stock/_search', () => ({
      hits: { total: { value: 0 }, hits: [] },
      aggregations: statsAggs,
    }));
    const result = await engine.search({ text: 'Disco, TRAV' }, { page: 1, perPage: 10 });
    expect(sent[0]!.body).toEqual({
      query: {
        bool: {
          filter: [],
          // Matching on the folded words only, as in Postgres; the language sub-fields only rank.
          must: [
            {
              multi_match: {
                query: 'disco trav',
                type: 'bool_prefix',
                operator: 'and',
                fields: ['text_all'],
              },
            },
          ],
          should: [{ multi_match: { query: 'disco trav', type: 'bool_prefix', fields: ['text_all.*'] } }],
        },
      },
      track_total_hits: true,
      aggs: expect.any(Object),
      sort: [{ _score: { order: 'desc' } }, { price: { order: 'asc' } }, { id: { order: 'asc' } }],
      from: 0,
      size: 10,
    });
    expect(result.stats.priceMin).toBeNull();
    expect(result.total).toBe(0);
  });

  it('refuses a page beyond the result window without asking the cluster', async () => {
    await expect(engine.search({}, { page: 501, perPage: 20 })).rejects.toBeInstanceOf(
      QueryNotSupportedError,
    );
    expect(sent).toHaveLength(0);
    answer('POST', '/stock/_search', () => ({ hits: { total: { value: 0 }, hits: [] } }));
    await engine.search({}, { page: 500, perPage: 20 });
    expect(sent[0]!.body).toMatchObject({ from: 9_980, size: 20 });
  });
});

describe('OpenSearch engine: detailed stats and facets', () => {
  it('asks for percentiles and countries, then the histogram buckets from min to max', async () => {
    let call = 0;
    answer('POST', '/stock/_search', () =>
      call++ === 0
        ? {
            hits: { total: { value: 3 }, hits: [] },
            aggregations: {
              ...statsAggs,
              by_country: { buckets: [{ key: 'PT', doc_count: 3, price: stats(3, 40, 60, 50) }] },
              percentiles: { values: { '25.0': 40, '50.0': 50.004, '75.0': 60 } },
            },
          }
        : {
            hits: { total: { value: 3 }, hits: [] },
            aggregations: { histogram: { buckets: [{ doc_count: 1 }] } },
          },
    );
    const result = await engine.stats({ country: 'PT' });
    expect(sent[0]!.body).toEqual({
      query: { bool: { filter: [{ term: { country_code: 'PT' } }] } },
      size: 0,
      track_total_hits: true,
      aggs: {
        ...STATS_AGGS,
        by_country: {
          terms: { field: 'country_code', size: 300 },
          aggs: { price: { stats: { field: 'price' } } },
        },
        percentiles: { percentiles: { field: 'price', percents: [25, 50, 75] } },
      },
    });
    const ranges = (sent[1]!.body as { aggs: { histogram: { range: { ranges: unknown[] } } } }).aggs.histogram
      .range.ranges;
    expect(ranges).toHaveLength(20);
    expect(ranges[0]).toEqual({ from: 40, to: 41 });
    expect(ranges[19]).toEqual({ from: 59 });
    expect(result).toMatchObject({
      priceMedian: 50,
      priceP25: 40,
      priceP75: 60,
      byCountry: { PT: { count: 3 } },
    });
    expect(result.histogram[0]).toEqual({ from: 40, to: 41, count: 1 });
    expect(result.histogram[1]!.count).toBe(0);
  });

  it('facets: a terms aggregation on the folded field, the smallest spelling shown', async () => {
    answer('POST', '/stock/_search', () => ({
      hits: { total: { value: 0 }, hits: [] },
      aggregations: {
        values: {
          buckets: [
            { key: 'golf vii', doc_count: 3, spelling: { buckets: [{ key: 'Golf VII', doc_count: 3 }] } },
            { key: 'golf', doc_count: 1, spelling: { buckets: [{ key: 'golf', doc_count: 1 }] } },
            { key: 'golf vi', doc_count: 1, spelling: { buckets: [{ key: 'Golf VI', doc_count: 1 }] } },
          ],
        },
      },
    }));
    const values = await engine.facets({ field: 'model', make: 'Volkswagen' });
    expect(sent[0]!.body).toEqual({
      size: 0,
      query: { bool: { filter: [{ term: { vehicle_make: 'volkswagen' } }] } },
      aggs: {
        values: {
          terms: { field: 'vehicle_model', size: 10_000, order: [{ _count: 'desc' }, { _key: 'asc' }] },
          aggs: { spelling: { terms: { field: 'vehicle_model.raw', size: 1, order: { _key: 'asc' } } } },
        },
      },
    });
    expect(values).toEqual([
      { value: 'Golf VII', count: 3 },
      { value: 'Golf VI', count: 1 },
      { value: 'golf', count: 1 },
    ]);
  });
});

describe('OpenSearch engine: an unreachable cluster', () => {
  it.each([
    ['connection refused', () => new errors.ConnectionError('connect ECONNREFUSED', {} as never)],
    ['timeout', () => new errors.TimeoutError('Request timed out', {} as never)],
  ])('%s becomes DependencyUnavailableError (503)', async (_label, failure) => {
    answer(['GET', 'POST', 'HEAD'], '*', failure);
    const error = await engine.search({}, { page: 1, perPage: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyUnavailableError);
    expect((error as DependencyUnavailableError).status).toBe(503);
    await expect(engine.ping()).rejects.toBeInstanceOf(DependencyUnavailableError);
  });

  it('ping fails when the alias does not exist yet', async () => {
    mock.add(
      { method: 'HEAD', path: '/_alias/stock' },
      () => new errors.ResponseError({ body: {}, statusCode: 404, headers: {}, meta: {} as never } as never),
    );
    await expect(engine.ping()).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});

const document = (id: number, version: number): StockDocument => ({
  id,
  version,
  reference: `R-${id}`,
  referenceNorm: `R${id}`,
  references: [],
  xrefReferences: [],
  referencesNorm: [`R${id}`],
  xrefGroupId: null,
  title: 't',
  description: '',
  partId: null,
  condition: 'novo',
  isOem: false,
  isAftermarket: false,
  price: 1,
  currency: 'EUR',
  vendorId: 1,
  vendorName: 'v',
  countryCode: 'PT',
  vehicleMake: null,
  vehicleModel: null,
  vehicleVariant: null,
  quantity: 1,
  updatedAt: '2026-11-01T00:00:00.000Z',
});

describe('indexer requests', () => {
  it('bulk: index actions and tombstones carry the row version as an external version; 409 is stale, not failed', async () => {
    answer('POST', '/_bulk', () => ({
      errors: true,
      took: 1,
      items: [
        { index: { _index: 'stock_v1', _id: '1', status: 201 } },
        {
          index: {
            _index: 'stock_v1',
            _id: '2',
            status: 409,
            error: { type: 'version_conflict_engine_exception' },
          },
        },
        { delete: { _index: 'stock_v1', _id: '3', status: 404 } },
      ],
    }));
    const outcome = await writeBatch(client, 'stock', {
      documents: [document(1, 5), document(2, 3)],
      deletions: [{ id: 3, version: 8 }],
    });
    const body = sent[0]!.body as Record<string, unknown>[];
    expect(body).toHaveLength(5);
    expect(body[0]).toEqual({ index: { _index: 'stock', _id: '1', version: 5, version_type: 'external' } });
    expect(body[1]).toMatchObject({ id: 1, reference: 'R-1', references_norm: ['R1'] });
    expect(body[2]).toEqual({ index: { _index: 'stock', _id: '2', version: 3, version_type: 'external' } });
    expect(body[4]).toEqual({ delete: { _index: 'stock', _id: '3', version: 8, version_type: 'external' } });
    expect(outcome).toEqual({ written: 2, stale: 1, failed: [] });
  });

  it('swaps the alias in one request (remove old, add new), then deletes the old index', async () => {
    answer('HEAD', '/_alias/stock', () => ({}));
    answer('GET', '/_alias/stock', () => ({ stock_v1: { aliases: { stock: {} } } }));
    answer('POST', '/_aliases', () => ({ acknowledged: true }));
    answer('DELETE', '/stock_v1', () => ({ acknowledged: true }));
    const removed = await swapAlias(client, 'stock', 'stock_v2');
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'HEAD /_alias/stock',
      'GET /_alias/stock',
      'POST /_aliases',
      'DELETE /stock_v1',
    ]);
    expect(sent[2]!.body).toEqual({
      actions: [
        { remove: { index: 'stock_v1', alias: 'stock' } },
        { add: { index: 'stock_v2', alias: 'stock', is_write_index: true } },
      ],
    });
    expect(removed).toEqual(['stock_v1']);
  });
});
