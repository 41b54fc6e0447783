import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestAccount, type TestAccount } from '../helpers/accounts-fixture.js';
import {
  byPriceThenId,
  expectedDetailedStats,
  expectedStats,
  matches,
  textMatches,
  vendorName,
  type PlainQuery,
} from '../helpers/brute-force.js';
import {
  FIXTURE_ITEMS,
  insertStockItems,
  loadStockFixture,
  type FixtureItem,
} from '../helpers/stock-fixture.js';
import { ENGINES, startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import { waitFor } from '../helpers/wait-until.js';
import { startTestApp } from '../helpers/test-app.js';
import type { TestClient } from '../helpers/test-client.js';
import type { ErrorEnvelope } from '../../src/http/error-response.js';
import type { SearchAnswer, StatsAnswer } from '../../web/src/api-types.js';

/** Where the app's clock stands at the start of every test: no test sees another's clock moves. */
const START = new Date('2026-11-22T12:00:00Z');

/**
 * Three items for "embraiagem completa" whose order by relevance is certain on either engine, and
 * the reverse of their order by price and by id: the words in the title and three times over in a
 * short text; once, side by side, in a short description; once each, far apart, in a long one.
 */
const BY_RELEVANCE: FixtureItem[] = [
  {
    id: 903,
    vendorId: 3,
    reference: 'EMB-903',
    title: 'Kit embraiagem completa',
    description: 'Embraiagem completa com rolamento e prato de embraiagem',
    condition: 'novo',
    price: 300,
    country: 'DE',
  },
  {
    id: 902,
    vendorId: 2,
    reference: 'EMB-902',
    title: 'Conjunto de transmissão',
    description: 'Embraiagem completa usada',
    condition: 'usado_bom',
    price: 100,
    country: 'ES',
  },
  {
    id: 901,
    vendorId: 1,
    reference: 'EMB-901',
    title: 'Volante bimassa',
    description:
      'Volante para embraiagem de origem, vendido com parafusos novos, caixa original e manual de montagem completa',
    condition: 'usado_bom',
    price: 20,
    country: 'PT',
  },
];
/** Listings written in English and in Italian. */
const ENGLISH: FixtureItem[] = [
  {
    id: 910,
    vendorId: 4,
    reference: 'EN-910',
    title: 'Rear wiper blade',
    description: 'Wiper blades for the rear window, sold as a pair',
    condition: 'novo',
    price: 15,
    country: 'FR',
  },
  {
    id: 911,
    vendorId: 1,
    reference: 'EN-911',
    title: 'Wiper motor',
    description: 'Front wiper motor with linkage',
    condition: 'usado_bom',
    price: 45,
    country: 'PT',
  },
];
const ITALIAN: FixtureItem[] = [
  {
    id: 920,
    vendorId: 2,
    reference: 'IT-920',
    title: 'Sensore di velocità ruota',
    description: 'Sensore ABS per ruota anteriore',
    condition: 'novo',
    price: 25,
    country: 'ES',
  },
  {
    id: 921,
    vendorId: 3,
    reference: 'IT-921',
    title: 'Motorino tergicristallo',
    description: 'Motorino del tergicristallo posteriore, velocità regolabile',
    condition: 'recondicionado',
    price: 35,
    country: 'DE',
  },
];
const TEXT_ITEMS = [...BY_RELEVANCE, ...ENGLISH, ...ITALIAN];
/** Everything the app's database holds: every expectation below is computed from it. */
const STOCK = [...FIXTURE_ITEMS, ...TEXT_ITEMS];
const idsOf = (items: { id: number }[]) => items.map((i) => i.id);
const numerically = (ids: number[]) => [...ids].sort((a, b) => a - b);

const ROOM_FOR_BURSTS = {
  ENGINE_MAX_QUEUED: '1000',
  ENGINE_QUEUE_TIMEOUT_MS: '30000',
  BREAKER_SLOW_CALL_MS: '60000',
};

/** Everything through HTTP, on each engine: the same answers are required of both. */
describe.each(ENGINES)('on the %s engine', (engine) => {
  let app: EngineApp;
  let clock: ManualClock;
  let account: TestAccount;
  let api: TestClient;

  beforeAll(async () => {
    clock = new ManualClock(START);
    app = await startEngineApp(
      engine,
      async (db) => {
        await loadStockFixture(db);
        await insertStockItems(db, TEXT_ITEMS);
      },
      // these tests are about answers and credits: a burst of them (the concurrency cases) on a
      // loaded machine must wait for the engine, not be refused by its bulkhead or its breaker
      // (tested in test/faults/engine-stall.test.ts)
      { clock, env: ROOM_FOR_BURSTS },
    );
  });
  afterAll(() => app.close());
  beforeEach(async () => {
    clock.set(START);
    account = await createTestAccount(app.services.db, clock);
    api = app.api.withApiKey(account.apiKey);
  });

  const search = (body: Record<string, unknown>, client: TestClient = api) =>
    client.post<SearchAnswer>('/data/search', body);

  async function balance(accountId = account.accountId): Promise<number> {
    const row = await app.services.db
      .selectFrom('accounts')
      .select('credits')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return row.credits;
  }

  describe('search semantics', () => {
    const cases: Array<[string, Record<string, unknown>, PlainQuery]> = [
      [
        'reference, normalized (case, spaces, dashes, dots)',
        { reference: '1k0.615-301 aa' },
        { reference: '1K0615301AA' },
      ],
      [
        'aftermarket reference finds the whole cross-reference group',
        { reference: '09 9145 11' },
        { reference: '09914511' },
      ],
      ['associated reference of an item', { reference: 'DF4294S' }, { reference: 'DF4294S' }],
      ['make, case and accent-insensitive', { vehicle_make: 'citroen' }, { make: 'Citroën' }],
      [
        'model matches whole words from the start',
        { vehicle_make: 'VOLKSWAGEN', vehicle_model: 'golf' },
        { make: 'volkswagen', model: 'golf' },
      ],
      [
        'model with accents',
        { vehicle_make: 'bmw', vehicle_model: 'serie 3' },
        { make: 'bmw', model: 'série 3' },
      ],
      ['part id', { part_id: 3 }, { partId: 3 }],
      ['condition filter', { part_id: 7, condition: 'usado_bom' }, { partId: 7, condition: 'usado_bom' }],
      [
        'is_oem filter',
        { reference: '1K0615301AA', is_oem: true },
        { reference: '1K0615301AA', isOem: true },
      ],
      ['is_aftermarket filter', { part_id: 3, is_aftermarket: true }, { partId: 3, isAftermarket: true }],
      ['country filter (lower-case accepted)', { part_id: 7, country: 'de' }, { partId: 7, country: 'DE' }],
      [
        'price range, inclusive',
        { part_id: 7, price_min: 30, price_max: 45.5 },
        { partId: 7, priceMin: 30, priceMax: 45.5 },
      ],
      [
        'Portuguese aliases',
        { referencia: '1K0615301AA', marca_veiculo: 'volkswagen' },
        { reference: '1K0615301AA', make: 'volkswagen' },
      ],
    ];

    it.each(cases)('%s', async (_name, body, plain) => {
      const expected = STOCK.filter((i) => matches(i, plain)).sort(byPriceThenId);
      expect(expected.length).toBeGreaterThan(0);
      const res = await search({ ...body, per_page: 100 });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(expected.length);
      expect(res.body.results.map((r) => r.id)).toEqual(expected.map((i) => i.id));
      expect(res.body.stats).toEqual(expectedStats(expected));
    });

    it('returns the spec item fields and says which reference matched', async () => {
      const res = await search({ reference: '24 0125 0131 1' });
      const ids = res.body.results.map((r) => r.id);
      expect(ids).toEqual([2, 3, 1]);
      const first = res.body.results[0]!;
      const item = STOCK.find((i) => i.id === 2)!;
      expect(first).toMatchObject({
        id: 2,
        referencia_oem: item.reference,
        titulo: item.title,
        condicao: item.condition,
        preco: item.price,
        moeda: 'EUR',
        vendor_nome: vendorName(item.vendorId),
        location_country_code: 'ES',
        referencia_encontrada: '24.0125-0131.1',
      });
      const viaAssociated = await search({ reference: '1K0615301AA' });
      const trw = viaAssociated.body.results.find((r) => r.id === 4)!;
      expect(trw.referencia_encontrada).toBe('1K0 615 301 AA');
      expect(trw.referencias).toEqual([
        { referencia: '1K0 615 301 AA', tipo: 'oem', marca: 'VW' },
        { referencia: 'DF 4294 S', tipo: 'aftermarket', marca: 'TRW' },
      ]);
      expect(viaAssociated.body.results.find((r) => r.id === 1)!.referencia_encontrada).toBe(
        '1K0 615 301 AA',
      );
    });

    /** The items a free-text search must find (any order: text results are ranked), never none. */
    const textExpected = (text: string, filter: (i: FixtureItem) => boolean = () => true) => {
      const expected = numerically(idsOf(STOCK.filter((i) => textMatches(i, text) && filter(i))));
      expect(expected.length, `fixture items for ${JSON.stringify(text)}`).toBeGreaterThan(0);
      return expected;
    };
    const foundBy = async (body: Record<string, unknown>) => {
      const res = await search({ ...body, per_page: 100 });
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(res.body.results.length);
      return numerically(idsOf(res.body.results));
    };

    it('full text: accent-insensitive, several languages, prefix on the last word', async () => {
      expect(await foundBy({ text: 'travao' })).toEqual(textExpected('travão'));
      expect(await foundBy({ text: 'Disque frein' })).toEqual(textExpected('Disque frein'));
      expect(await foundBy({ texto: 'bremsscheib' })).toEqual(textExpected('bremsscheib'));
      expect(await foundBy({ text: 'belüftet' })).toEqual(textExpected('belüftet'));
      expect(await foundBy({ text: 'ALTERN' })).toEqual(textExpected('altern'));
      expect(await foundBy({ text: 'filtro oleo' })).toEqual(textExpected('filtro óleo'));
      // item 8 mentions Golf in its description only; the prefix also finds "Golfinho"
      expect(await foundBy({ text: 'golf' })).toEqual(textExpected('golf'));
    });

    it('full text in English and in Italian finds the listings written in them', async () => {
      const english = numerically(idsOf(ENGLISH));
      const italian = numerically(idsOf(ITALIAN));
      // case folded; the last word a prefix ("blade" finds "blades" too)
      expect(await foundBy({ text: 'WIPER' })).toEqual(english);
      expect(await foundBy({ text: 'wiper blade' })).toEqual(textExpected('wiper blade'));
      expect(textExpected('wiper blade').every((id) => english.includes(id))).toBe(true);
      expect(await foundBy({ text: 'front wiper mot' })).toEqual(textExpected('front wiper mot'));
      // accents folded both ways: "velocita" finds "velocità", "velocità" finds it too
      expect(await foundBy({ text: 'velocita' })).toEqual(italian);
      expect(await foundBy({ texto: 'Sensore velocità' })).toEqual(textExpected('sensore velocita'));
      expect(textExpected('sensore velocita').every((id) => italian.includes(id))).toBe(true);
      expect(await foundBy({ text: 'tergicrist' })).toEqual(textExpected('tergicrist'));
    });

    it('a condition narrows a text search to the items in that condition, and only those', async () => {
      const all = await foundBy({ text: 'disco' });
      expect(all).toEqual(textExpected('disco'));
      const novo = textExpected('disco', (i) => i.condition === 'novo');
      // the filter has something to exclude: "disco" also finds items in other conditions
      expect(all.filter((id) => !novo.includes(id)).length).toBeGreaterThan(0);
      const filtered = await search({ text: 'disco', condition: 'novo', per_page: 100 });
      expect(numerically(idsOf(filtered.body.results))).toEqual(novo);
      expect(filtered.body.total).toBe(novo.length);
      for (const item of filtered.body.results) expect(item.condicao, String(item.id)).toBe('novo');
    });

    it('text ranks by relevance, not by price: the words in the title and repeated first', async () => {
      const res = await search({ text: 'embraiagem completa' });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r) => r.id)).toEqual(idsOf(BY_RELEVANCE));
      // what an order by price or by id would give instead (so the order above proves relevance)
      expect(idsOf([...BY_RELEVANCE].sort(byPriceThenId))).toEqual(idsOf(BY_RELEVANCE).reverse());
      expect(numerically(idsOf(BY_RELEVANCE))).toEqual(idsOf(BY_RELEVANCE).reverse());
    });

    it('pages are stable, never overlap, and cover the result set exactly', async () => {
      const expected = STOCK.filter((i) => i.partId === 7)
        .sort(byPriceThenId)
        .map((i) => i.id);
      const first = await search({ part_id: 7, per_page: 4 });
      expect(first.body.total_pages).toBe(Math.ceil(expected.length / 4));
      const seen: number[] = [];
      for (let page = 1; page <= first.body.total_pages; page++) {
        const res = await search({ part_id: 7, per_page: 4, page, search_token: first.body.search_token });
        expect(res.body.page).toBe(page);
        seen.push(...res.body.results.map((r) => r.id));
      }
      expect(seen).toEqual(expected);
    });

    it('a page past the end is 200 with no results and the true total', async () => {
      const res = await search({ part_id: 7, per_page: 10, page: 9 });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([]);
      expect(res.body.total).toBe(STOCK.filter((i) => i.partId === 7).length);
      expect(res.body.total).toBeGreaterThan(0);
    });

    it('without page and per_page: page 1 of 20 items (the defaults)', async () => {
      const expected = STOCK.filter((i) => matches(i, { partId: 7 })).sort(byPriceThenId);
      expect(expected.length).toBeGreaterThan(20);
      const res = await search({ part_id: 7 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        page: 1,
        per_page: 20,
        total: expected.length,
        total_pages: Math.ceil(expected.length / 20),
      });
      expect(idsOf(res.body.results)).toEqual(idsOf(expected.slice(0, 20)));
    });

    it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
      ['parte_id', { parte_id: 7 }, { part_id: 7 }],
      [
        'modelo_veiculo (with marca_veiculo)',
        { marca_veiculo: 'volkswagen', modelo_veiculo: 'golf' },
        { vehicle_make: 'volkswagen', vehicle_model: 'golf' },
      ],
      [
        'modelo_veiculo (with vehicle_make)',
        { vehicle_make: 'volkswagen', modelo_veiculo: 'golf vii' },
        { vehicle_make: 'volkswagen', vehicle_model: 'golf vii' },
      ],
    ])('the Portuguese alias %s gives what the English name gives', async (_alias, portuguese, english) => {
      const inPortuguese = await search({ ...portuguese, per_page: 100 });
      const inEnglish = await search({ ...english, per_page: 100 });
      expect(inPortuguese.status).toBe(200);
      expect(inEnglish.status).toBe(200);
      const plain: PlainQuery = {
        ...(english.part_id !== undefined ? { partId: english.part_id as number } : {}),
        ...(english.vehicle_make !== undefined ? { make: english.vehicle_make as string } : {}),
        ...(english.vehicle_model !== undefined ? { model: english.vehicle_model as string } : {}),
      };
      const expected = STOCK.filter((i) => matches(i, plain)).sort(byPriceThenId);
      expect(expected.length).toBeGreaterThan(0);
      expect(idsOf(inPortuguese.body.results)).toEqual(idsOf(expected));
      expect(idsOf(inEnglish.body.results)).toEqual(idsOf(expected));
      expect(inPortuguese.body.stats).toEqual(inEnglish.body.stats);
      if (plain.model !== undefined) {
        // the model was applied, not ignored: the make alone finds more
        expect(STOCK.filter((i) => matches(i, { make: plain.make })).length).toBeGreaterThan(expected.length);
      }
    });

    it('no results: 0 credits, no token, empty stats', async () => {
      const res = await search({ reference: 'NOPE-0000' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ credits_spent: 0, total: 0, total_pages: 0, results: [] });
      expect(res.body).not.toHaveProperty('search_token');
      expect(res.body.stats).toEqual(expectedStats([]));
      expect(res.headers.get('x-search-token-status')).toBe('none');
      expect(await balance()).toBe(50);
    });
  });

  describe('documented headers', () => {
    it('a search answer sends every header its OpenAPI description declares', async () => {
      const doc = await app.api.get<{
        paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
      }>('/openapi.json');
      const declared = (status: string) =>
        Object.keys(doc.body.paths['/data/search']!.post!.responses[status]!.headers ?? {});
      expect(declared('200')).toEqual(
        expect.arrayContaining(['X-Search-Token-Status', 'X-RateLimit-Remaining', 'X-Request-Id']),
      );
      const ok = await search({ part_id: 3 });
      for (const name of declared('200')) expect(ok.headers.get(name), name).not.toBeNull();
      const bad = await search({ part_id: 'x' });
      expect(bad.status).toBe(400);
      for (const name of declared('400')) expect(bad.headers.get(name), name).not.toBeNull();
    });
  });

  describe('validation', () => {
    it.each([
      [{}, 'MISSING_SEARCH_FIELD'],
      [{ condition: 'novo', country: 'PT' }, 'MISSING_SEARCH_FIELD'],
      [{ vehicle_model: 'Golf' }, 'MISSING_SEARCH_FIELD'],
      [{ reference: 'A', referencia: 'B' }, 'CONFLICTING_FIELDS'],
      [{ part_id: 3, parte_id: 7 }, 'CONFLICTING_FIELDS'],
      [{ vehicle_make: 'bmw', vehicle_model: 'serie 3', modelo_veiculo: 'golf' }, 'CONFLICTING_FIELDS'],
      [{ reference: '---' }, 'INVALID_REFERENCE'],
      [{ text: '?!' }, 'INVALID_TEXT'],
      [{ part_id: 3, price_min: 10, price_max: 5 }, 'INVALID_PRICE_RANGE'],
      [{ part_id: 3, country: 'XX' }, 'INVALID_COUNTRY'],
      [{ part_id: 3, country: 'PRT' }, 'VALIDATION_ERROR'],
      [{ part_id: 3, per_page: 101 }, 'VALIDATION_ERROR'],
      [{ part_id: 3, per_page: 0 }, 'VALIDATION_ERROR'],
      [{ part_id: 3, page: 0 }, 'VALIDATION_ERROR'],
      [{ part_id: '3' }, 'VALIDATION_ERROR'],
      [{ part_id: 3, condition: 'bom' }, 'VALIDATION_ERROR'],
      [{ part_id: 3, is_oem: 'yes' }, 'VALIDATION_ERROR'],
      [{ part_id: 3, price_min: -1 }, 'VALIDATION_ERROR'],
      [{ part_id: 3, colour: 'red' }, 'VALIDATION_ERROR'],
      [{ part_id: 3, page: 101, per_page: 100 }, 'PAGE_OUT_OF_RANGE'],
      // text PostgreSQL cannot store or compare: the caller's 400, not a 500 from the database
      [{ reference: 'ABC\u0000DEF' }, 'INVALID_CHARACTERS'],
      [{ vehicle_make: 'Volkswagen', vehicle_model: '\u0000' }, 'INVALID_CHARACTERS'],
      [{ vehicle_make: '\ud800' }, 'INVALID_CHARACTERS'],
    ])('%o -> 400 %s, nothing charged', async (body, code) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code });
      expect(typeof (res.body as unknown as ErrorEnvelope).mensagem).toBe('string');
      expect(await balance()).toBe(50);
    });

    it('names the unknown field and the bad value in Portuguese', async () => {
      const res = await search({ part_id: 3, colour: 'red', per_page: 500 });
      const mensagem = (res.body as unknown as ErrorEnvelope).mensagem;
      expect(mensagem).toContain('corpo.colour não é reconhecido');
      expect(mensagem).toContain('corpo.per_page deve ser no máximo 100');
    });

    it('the same value under both names is accepted', async () => {
      const res = await search({ reference: '1K0615301AA', referencia: '1K0615301AA' });
      expect(res.status).toBe(200);
    });

    it('401 without a credential, with an unknown key, and with a malformed bearer', async () => {
      expect((await app.api.post('/data/search', { part_id: 3 })).status).toBe(401);
      expect((await app.api.withApiKey('psk_unknown').post('/data/search', { part_id: 3 })).status).toBe(401);
      expect(
        (await app.api.with({ Authorization: 'Basic abc' }).post('/data/search', { part_id: 3 })).status,
      ).toBe(401);
    });

    it('every credential presented must be valid and of one account', async () => {
      const withBadBearer = app.api.withApiKey(account.apiKey).withBearer('pst_not-a-session');
      expect((await withBadBearer.post('/data/search', { part_id: 3 })).status).toBe(401);
      // two bad credentials: the key's error, even when the bearer's is known first (no lookup)
      for (const bearer of ['pst_not-a-session', 'not-even-a-bearer-token']) {
        const bothBad = await app.api
          .withApiKey('psk_unknown')
          .withBearer(bearer)
          .post('/data/search', { part_id: 3 });
        expect(bothBad.status).toBe(401);
        expect(bothBad.body.code).toBe('INVALID_API_KEY');
      }
      const both = app.api.withApiKey(account.apiKey).withBearer(account.bearer);
      expect((await both.post('/data/search', { part_id: 3 })).status).toBe(200);
      const other = await createTestAccount(app.services.db, clock);
      const mixed = await app.api
        .withApiKey(account.apiKey)
        .withBearer(other.bearer)
        .post('/data/search', { part_id: 3 });
      expect(mixed.status).toBe(401);
      expect(mixed.body.code).toBe('CREDENTIALS_MISMATCH');
      const badKeyOnBearerRoute = await app.api
        .withBearer(account.bearer)
        .withApiKey('psk_unknown')
        .get('/data/credits/balance');
      expect(badKeyOnBearerRoute.status).toBe(401);
      expect(await balance()).toBe(49);
    });

    it('accepts a Bearer token as well as an API key', async () => {
      const res = await search({ part_id: 3 }, app.api.withBearer(account.bearer));
      expect(res.status).toBe(200);
      expect(res.body.credits_spent).toBe(1);
    });
  });

  describe('credits and search tokens', () => {
    it('first page with results costs 1 and returns a token valid 10 minutes', async () => {
      const res = await search({ part_id: 7, per_page: 5 });
      expect(res.body.credits_spent).toBe(1);
      expect(res.body.credits_remaining).toBe(49);
      expect(res.body.search_token).toMatch(/^st2\./);
      expect(new Date(res.body.search_token_expires_at!).getTime()).toBe(
        clock.now().getTime() + 10 * 60 * 1000,
      );
      expect(res.headers.get('x-search-token-status')).toBe('none');
      expect(await balance()).toBe(49);
    });

    it('pages with the token are free while it is valid, page 1 included', async () => {
      const first = await search({ part_id: 7, per_page: 5 });
      const token = first.body.search_token!;
      for (const page of [2, 3, 1]) {
        clock.advance(60_000);
        const res = await search({ part_id: 7, per_page: 5, page, search_token: token });
        expect(res.body.credits_spent).toBe(0);
        // a token of the same search, as long-lived as the first: paging never extends it
        expect(res.body.search_token_expires_at).toBe(first.body.search_token_expires_at);
        expect(res.headers.get('x-search-token-status')).toBe('valid');
      }
      // per_page is not part of the token binding
      const wider = await search({ part_id: 7, per_page: 10, page: 2, search_token: token });
      expect(wider.body.credits_spent).toBe(0);
      expect(await balance()).toBe(49);
    });

    it('an expired token is charged as a first search and gets a new token', async () => {
      const first = await search({ part_id: 7 });
      clock.advance(10 * 60 * 1000);
      const res = await search({ part_id: 7, page: 2, search_token: first.body.search_token });
      expect(res.headers.get('x-search-token-status')).toBe('expired');
      expect(res.body.credits_spent).toBe(1);
      expect(res.body.search_token).not.toBe(first.body.search_token);
      expect(await balance()).toBe(48);
    });

    it('a token issued mid-second is still valid a millisecond before its 10 minutes end', async () => {
      clock.advance(999);
      const first = await search({ part_id: 7 });
      const expiresAt = new Date(first.body.search_token_expires_at!).getTime();
      expect(expiresAt - clock.now().getTime()).toBeGreaterThanOrEqual(10 * 60 * 1000);
      expect(expiresAt - clock.now().getTime()).toBeLessThan(10 * 60 * 1000 + 1000);
      clock.advance(10 * 60 * 1000 - 1);
      const page = await search({ part_id: 7, page: 2, search_token: first.body.search_token });
      expect(page.headers.get('x-search-token-status')).toBe('valid');
      expect(page.body.credits_spent).toBe(0);
    });

    it('a forged token is invalid and charged', async () => {
      const first = await search({ part_id: 7 });
      const token = first.body.search_token!;
      const forged = token.replace(/\.(\d+)\./, (_, exp: string) => `.${Number(exp) + 3600}.`);
      const res = await search({ part_id: 7, page: 2, search_token: forged });
      expect(res.headers.get('x-search-token-status')).toBe('invalid');
      expect(res.body.credits_spent).toBe(1);
      const garbage = await search({ part_id: 7, page: 2, search_token: 'not-a-token' });
      expect(garbage.headers.get('x-search-token-status')).toBe('invalid');
      expect(await balance()).toBe(47);
    });

    it('a token for other search fields, or of another account, is a mismatch and charged', async () => {
      const first = await search({ part_id: 7 });
      const other = await search({ part_id: 3, search_token: first.body.search_token });
      expect(other.headers.get('x-search-token-status')).toBe('mismatch');
      expect(other.body.credits_spent).toBe(1);
      const stranger = await createTestAccount(app.services.db, clock);
      const theirs = await search(
        { part_id: 7, page: 2, search_token: first.body.search_token },
        app.api.withApiKey(stranger.apiKey),
      );
      expect(theirs.headers.get('x-search-token-status')).toBe('mismatch');
      expect(theirs.body.credits_spent).toBe(1);
      expect(await balance(stranger.accountId)).toBe(49);
    });

    it('the same search written differently keeps the token valid', async () => {
      const first = await search({ reference: '1K0 615 301 AA', vehicle_make: 'Volkswagen' });
      const res = await search({
        referencia: '1k0-615-301-aa',
        marca_veiculo: 'VOLKSWAGEN',
        page: 2,
        search_token: first.body.search_token,
      });
      expect(res.headers.get('x-search-token-status')).toBe('valid');
      expect(res.body.credits_spent).toBe(0);
    });

    describe('paging on from where the last page ended', () => {
      /** Every page of a search, each asked with the token the page before it gave. */
      async function pagesFollowingTokens(body: Record<string, unknown>, perPage: number) {
        const pages: SearchAnswer[] = [];
        let token: string | undefined;
        for (let page = 1; ; page++) {
          const res = await search({
            ...body,
            per_page: perPage,
            page,
            ...(token ? { search_token: token } : {}),
          });
          expect(res.status).toBe(200);
          pages.push(res.body);
          token = res.body.search_token;
          if (page >= res.body.total_pages) return pages;
        }
      }

      it.each<[string, Record<string, unknown>, number]>([
        ['by price', { part_id: 7 }, 2],
        ['by relevance', { text: 'embraiagem' }, 1],
        ['make and model', { vehicle_make: 'Volkswagen', vehicle_model: 'Golf' }, 2],
        ['by make', { vehicle_make: 'Volkswagen' }, 3],
      ])(
        '%s: the pages read on from each token are the pages the first token gives',
        async (_, body, perPage) => {
          const followed = await pagesFollowingTokens(body, perPage);
          expect(followed.length).toBeGreaterThan(2);
          const first = followed[0]!;
          // a token of this search that leads to no page of this size: each page read by offset,
          // with its own count and statistics, as every page was before tokens led on
          const plain = (await search({ ...body, per_page: 100 })).body.search_token;
          for (const [i, page] of followed.entries()) {
            const asToday = await search({
              ...body,
              per_page: perPage,
              page: i + 1,
              search_token: plain,
            });
            expect(page.results).toEqual(asToday.body.results);
            // the same answer but for its token and charge (page 1 paid the search)
            const figures = (answer: SearchAnswer) => ({
              ...answer,
              search_token: null,
              credits_spent: null,
              credits_remaining: null,
            });
            expect(figures(page)).toEqual(figures(asToday.body));
            expect(asToday.body.credits_spent).toBe(0);
            expect(page.credits_spent).toBe(i === 0 ? 1 : 0);
            expect(page.search_token_expires_at).toBe(first.search_token_expires_at);
          }
          // the last page leads nowhere further: the page after it is asked as any other, and empty
          const last = followed[followed.length - 1]!;
          const past = await search({
            ...body,
            per_page: perPage,
            page: followed.length + 1,
            search_token: last.search_token,
          });
          expect(past.body.results).toEqual([]);
          expect(past.body.total).toBe(first.total);
        },
      );

      /** Nine items only a search for their shared reference finds, priced 11 to 19. */
      const PROBES: FixtureItem[] = Array.from({ length: 9 }, (_, i) => ({
        id: 9_501 + i,
        vendorId: 1 + (i % 3),
        reference: 'PAGING-PROBE',
        title: 'Sonda de paginação',
        condition: 'novo',
        price: 11 + i,
        country: 'PT',
      }));
      const probeIds = (answer: SearchAnswer) => answer.results.map((r) => r.id);
      /** A page of three probes, with a token or none. */
      const probePage = (page: number, token?: string) =>
        search({ reference: 'PAGING-PROBE', per_page: 3, page, ...(token ? { search_token: token } : {}) });

      /** Changes the stock, and waits until a fresh search of the probes sees `total` of them. */
      async function changeStock(change: () => Promise<unknown>, total: number) {
        await change();
        const onlooker = app.api.withApiKey((await createTestAccount(app.services.db, clock)).apiKey);
        await waitFor(
          `${total} probes found`,
          () => onlooker.post<SearchAnswer>('/data/search', { reference: 'PAGING-PROBE' }),
          (res) => res.body.total === total,
        );
      }

      it('items that enter or leave the stock between pages move no other item across pages', async () => {
        await changeStock(() => insertStockItems(app.services.db, PROBES), 9);
        try {
          const first = await probePage(1);
          expect(probeIds(first.body)).toEqual([9_501, 9_502, 9_503]);
          // one item of the page seen leaves, two enter: all before where page 2 starts
          await changeStock(async () => {
            await app.services.db.deleteFrom('stock_items').where('id', '=', '9502').execute();
            await insertStockItems(app.services.db, [
              { ...PROBES[0]!, id: 9_510, price: 5 },
              { ...PROBES[0]!, id: 9_511, price: 12.5 },
            ]);
          }, 10);
          const second = await probePage(2, first.body.search_token);
          // read on from where page 1 ended: nothing repeated, nothing skipped, the first page's figures
          expect(probeIds(second.body)).toEqual([9_504, 9_505, 9_506]);
          expect(second.body.total).toBe(9);
          expect(second.body.stats).toEqual(first.body.stats);
          expect(second.body.credits_spent).toBe(0);
          const third = await probePage(3, second.body.search_token);
          expect(probeIds(third.body)).toEqual([9_507, 9_508, 9_509]);
          // the first token, asked for page 3, reads it as a first page is: by offset in today's stock
          const byOffset = await probePage(3, first.body.search_token);
          expect(probeIds(byOffset.body)).toEqual([9_506, 9_507, 9_508]);
          expect(byOffset.body.total).toBe(10);
          expect(byOffset.body.stats.price_min).toBe(5);
        } finally {
          await changeStock(
            () => app.services.db.deleteFrom('stock_items').where('reference', '=', 'PAGING-PROBE').execute(),
            0,
          );
        }
      });

      it('a token whose figures were altered is invalid, and charged', async () => {
        const first = await search({ part_id: 7, per_page: 2 });
        const [version, account, expiry, hash, next, signature] = first.body.search_token!.split('.');
        const packed = JSON.parse(Buffer.from(next!, 'base64url').toString()) as { s: number[] };
        packed.s[0] = 1_000_000;
        const altered = [
          version,
          account,
          expiry,
          hash,
          Buffer.from(JSON.stringify(packed)).toString('base64url'),
          signature,
        ].join('.');
        const res = await search({ part_id: 7, per_page: 2, page: 2, search_token: altered });
        expect(res.headers.get('x-search-token-status')).toBe('invalid');
        expect(res.body.credits_spent).toBe(1);
        expect(res.body.total).toBe(first.body.total);
      });
    });

    it('402 with no results returned and nothing written when the balance is 0', async () => {
      const broke = await createTestAccount(app.services.db, clock, { credits: 0 });
      const before = await app.services.db
        .selectFrom('credit_ledger')
        .select('id')
        .where('account_id', '=', broke.accountId)
        .execute();
      const res = await search({ part_id: 7 }, app.api.withApiKey(broke.apiKey));
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
      expect(res.body).not.toHaveProperty('results');
      expect(await balance(broke.accountId)).toBe(0);
      const after = await app.services.db
        .selectFrom('credit_ledger')
        .select('id')
        .where('account_id', '=', broke.accountId)
        .execute();
      expect(after).toEqual(before);
      // a search without results is still free and allowed
      expect((await search({ reference: 'NOPE' }, app.api.withApiKey(broke.apiKey))).status).toBe(200);
    });

    it('the account daily limit stops spending for the rest of the UTC day', async () => {
      await app.services.db
        .updateTable('accounts')
        .set({ daily_credit_limit: 2 })
        .where('id', '=', account.accountId)
        .execute();
      expect((await search({ part_id: 7 })).body.credits_spent).toBe(1);
      expect((await search({ part_id: 3 })).body.credits_spent).toBe(1);
      const third = await search({ part_id: 11 });
      expect(third.status).toBe(402);
      expect(third.body).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
      expect(await balance()).toBe(48);
      clock.set(new Date('2026-11-23T00:00:01Z'));
      expect((await search({ part_id: 11 })).status).toBe(200);
    });

    it("an API key's daily limit applies to that key only", async () => {
      const limited = await createTestAccount(app.services.db, clock, { keyDailyLimit: 1 });
      const key = app.api.withApiKey(limited.apiKey);
      expect((await search({ part_id: 7 }, key)).status).toBe(200);
      const second = await search({ part_id: 3 }, key);
      expect(second.status).toBe(402);
      expect(second.body).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
      expect((await search({ part_id: 3 }, app.api.withBearer(limited.bearer))).status).toBe(200);
    });

    it('records history rows and ledger rows that add up to the balance', async () => {
      await search({ part_id: 7 });
      await search({ reference: 'NOPE' });
      const first = await search({ part_id: 3 });
      await search({ part_id: 3, page: 2, search_token: first.body.search_token });
      const db = app.services.db;
      const history = await db
        .selectFrom('searches')
        .selectAll()
        .where('account_id', '=', account.accountId)
        .orderBy('id')
        .execute();
      expect(history.map((h) => [h.total > 0, h.credits_spent, h.token_status])).toEqual([
        [true, 1, 'none'],
        [false, 0, 'none'],
        [true, 1, 'none'],
        [true, 0, 'valid'],
      ]);
      const ledger = await db
        .selectFrom('credit_ledger')
        .selectAll()
        .where('account_id', '=', account.accountId)
        .execute();
      expect(ledger.reduce((s, l) => s + l.delta, 0)).toBe(await balance());
    });
  });

  describe('POST /data/search/stats', () => {
    it('equals a brute-force computation and costs 1 credit', async () => {
      const res = await api.post<StatsAnswer>('/data/search/stats', { part_id: 7, price_max: 60 });
      expect(res.status).toBe(200);
      expect(res.body.credits_spent).toBe(1);
      const expected = STOCK.filter((i) => matches(i, { partId: 7, priceMax: 60 }));
      const { histogram, ...rest } = res.body.stats;
      expect(rest).toEqual(expectedDetailedStats(expected));
      expect(histogram).toHaveLength(20);
      expect(histogram.reduce((s, b) => s + b.count, 0)).toBe(expected.length);
      expect(histogram[0]!.from).toBe(30);
      expect(histogram.at(-1)!.to).toBe(60);
      for (const item of expected) {
        const bucket = histogram.findIndex(
          (b, i) => item.price >= b.from && (item.price < b.to || i === histogram.length - 1),
        );
        expect(bucket).toBeGreaterThanOrEqual(0);
      }
      expect(histogram[0]!.count).toBe(expected.filter((i) => i.price === 30).length);
      expect(await balance()).toBe(49);
    });

    it('filters narrow the stats; no results cost nothing', async () => {
      const res = await api.post<StatsAnswer>('/data/search/stats', {
        part_id: 7,
        condition: 'novo',
        country: 'PT',
      });
      const expected = STOCK.filter((i) => matches(i, { partId: 7, condition: 'novo', country: 'PT' }));
      expect(res.body.stats).toMatchObject(expectedDetailedStats(expected));
      const none = await api.post<StatsAnswer>('/data/search/stats', { reference: 'NOPE' });
      expect(none.body.credits_spent).toBe(0);
      expect(none.body.stats).toMatchObject({
        total_results: 0,
        price_median: null,
        histogram: [],
        by_country: {},
      });
      expect(await balance()).toBe(49);
    });

    it('ignores page and per_page, which only a search pages with', async () => {
      const res = await api.post<StatsAnswer>('/data/search/stats', {
        part_id: 7,
        page: 200,
        per_page: 100,
      });
      expect(res.status).toBe(200);
      expect(res.body.stats.total_results).toBe(STOCK.filter((i) => i.partId === 7).length);
    });

    it('a NUL character is a 400 that costs nothing', async () => {
      const res = await api.post('/data/search/stats', { reference: 'W 712\u0000/95' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_CHARACTERS');
      expect(await balance()).toBe(50);
    });

    it('402 with the error body and nothing charged or written when the balance is too low', async () => {
      const broke = await createTestAccount(app.services.db, clock, { credits: 0 });
      const written = async () => ({
        ledger: await app.services.db
          .selectFrom('credit_ledger')
          .selectAll()
          .where('account_id', '=', broke.accountId)
          .orderBy('id')
          .execute(),
        history: await app.services.db
          .selectFrom('searches')
          .selectAll()
          .where('account_id', '=', broke.accountId)
          .execute(),
      });
      const before = await written();
      expect(before.ledger.length).toBeGreaterThan(0);
      const res = await app.api
        .withApiKey(broke.apiKey)
        .post<ErrorEnvelope>('/data/search/stats', { part_id: 7 });
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({ success: false, code: 'INSUFFICIENT_CREDITS' });
      expect(res.body.mensagem).toMatch(/créditos insuficientes/i);
      expect(res.body).not.toHaveProperty('stats');
      expect(await balance(broke.accountId)).toBe(0);
      expect(await written()).toEqual(before);
    });

    it('accepts a Bearer token as well as an API key, and charges the same', async () => {
      const res = await app.api
        .withBearer(account.bearer)
        .post<StatsAnswer>('/data/search/stats', { part_id: 3 });
      expect(res.status).toBe(200);
      expect(res.body.credits_spent).toBe(1);
      const { histogram: _histogram, ...rest } = res.body.stats;
      expect(rest).toEqual(expectedDetailedStats(STOCK.filter((i) => matches(i, { partId: 3 }))));
      expect(await balance()).toBe(49);
    });

    it('401 without a credential or with an unknown one, charging nobody', async () => {
      for (const client of [app.api, app.api.withApiKey('psk_unknown'), app.api.withBearer('pst_unknown')]) {
        const res = await client.post<ErrorEnvelope>('/data/search/stats', { part_id: 7 });
        expect(res.status).toBe(401);
        expect(res.body.success).toBe(false);
      }
      expect(await balance()).toBe(50);
    });

    it('a single price gives one histogram bucket', async () => {
      const res = await api.post<StatsAnswer>('/data/search/stats', { reference: 'GOLF-X-1' });
      expect(res.body.stats.histogram).toEqual([{ from: 10, to: 10, count: 1 }]);
    });
  });

  describe('concurrency', () => {
    it('200 simultaneous first-page searches on 50 credits: exactly 50 succeed, balance 0, ledger consistent', async () => {
      const requests = Array.from({ length: 200 }, () => search({ part_id: 7 }));
      const responses = await Promise.all(requests);
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 402)).toHaveLength(150);
      expect(await balance()).toBe(0);
      const ledger = await app.services.db
        .selectFrom('credit_ledger')
        .selectAll()
        .where('account_id', '=', account.accountId)
        .execute();
      expect(ledger.filter((l) => l.kind === 'search')).toHaveLength(50);
      expect(ledger.reduce((s, l) => s + l.delta, 0)).toBe(0);
      expect(new Set(ledger.map((l) => l.balance_after)).size).toBe(ledger.length);
    });

    it("a key's daily limit holds under 40 simultaneous searches; the account's other credits stay", async () => {
      const limited = await createTestAccount(app.services.db, clock, { keyDailyLimit: 10 });
      const key = app.api.withApiKey(limited.apiKey);
      const responses = await Promise.all(Array.from({ length: 40 }, () => search({ part_id: 7 }, key)));
      const ok = responses.filter((r) => r.status === 200);
      expect(ok).toHaveLength(10);
      const refused = responses.filter((r) => r.status === 402);
      expect(refused).toHaveLength(30);
      for (const r of refused) expect(r.body).toMatchObject({ code: 'DAILY_LIMIT_REACHED' });
      // Every charge saw the ones before it: ten different balances, 49 down to 40.
      expect(ok.map((r) => r.body.credits_remaining).sort((a, b) => b - a)).toEqual([
        49, 48, 47, 46, 45, 44, 43, 42, 41, 40,
      ]);
      expect(await balance(limited.accountId)).toBe(40);
      const history = await app.services.db
        .selectFrom('searches')
        .select(['credits_spent'])
        .where('account_id', '=', limited.accountId)
        .execute();
      expect(history).toHaveLength(10); // refused searches leave no history row
    });

    // PGlite is one process's database (its data directory is locked to it): no second process
    it.skipIf(engine === 'postgres (PGlite)')(
      'two API processes on one database never overspend one account between them',
      async () => {
        const second = await startTestApp({
          clock,
          database: app.database,
          env: { ...app.engineEnv, ...ROOM_FOR_BURSTS },
        });
        try {
          const other = second.api.withApiKey(account.apiKey);
          await app.services.db
            .updateTable('accounts')
            .set({ credits: 30 })
            .where('id', '=', account.accountId)
            .execute();
          const responses = await Promise.all(
            Array.from({ length: 120 }, (_, i) => search({ part_id: 7 }, i % 2 ? other : api)),
          );
          expect(responses.filter((r) => r.status === 200)).toHaveLength(30);
          expect(responses.filter((r) => r.status === 402)).toHaveLength(90);
          expect(await balance()).toBe(0);
          const ledger = await app.services.db
            .selectFrom('credit_ledger')
            .select(['delta', 'balance_after'])
            .where('account_id', '=', account.accountId)
            .where('kind', '=', 'search')
            .execute();
          expect(ledger).toHaveLength(30);
          expect(new Set(ledger.map((l) => l.balance_after)).size).toBe(30);
        } finally {
          await second.close();
        }
      },
    );
  });
});
