import { get as httpGet } from 'node:http';
import countries from 'i18n-iso-countries';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartsSnapshot } from '../../src/catalog/parts-snapshot.js';
import { seedCatalog } from '../../src/catalog/seed.js';
import { fold } from '../../src/search/references.js';
import { FIXTURE_ITEMS, loadStockFixture } from '../helpers/stock-fixture.js';
import { ENGINES, startEngineApp, type EngineApp } from '../helpers/engine-app.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { DATABASE_KINDS } from '../helpers/test-env.js';
import { waitFor } from '../helpers/wait-until.js';
import type { ErrorEnvelope } from '../../src/http/error-response.js';
import type {
  BrandsAnswer,
  ConditionsAnswer,
  CountriesAnswer,
  ModelsAnswer,
  PartsAnswer,
} from '../../web/src/api-types.js';

const LANGS = ['pt', 'en', 'es', 'fr', 'de', 'it'] as const;
const SPEC_CONDITIONS = ['novo', 'usado_bom', 'usado_aceitavel', 'recondicionado', 'para_pecas'];

/** A page of a list; its entries as the API declares them where web/src/api-types.ts has the list. */
interface PageBody<T = Record<string, unknown>> {
  success: true;
  total: number;
  page: number;
  total_pages: number;
  results: T[];
}
type Part = PartsAnswer['results'][number];
type CodedEntry = ConditionsAnswer['results'][number];
type Country = CountriesAnswer['results'][number];
/** a brand, model or variant of the stock, with its items */
type StockName = BrandsAnswer['results'][number] & ModelsAnswer['results'][number];
type ErrorBody = Pick<ErrorEnvelope, 'code' | 'mensagem'>;

describe.each(DATABASE_KINDS)('catalogs on %s', (databaseKind) => {
  let app: TestApp;
  let firstSeed: Awaited<ReturnType<typeof seedCatalog>>;

  beforeAll(async () => {
    app = await startTestApp({ databaseKind });
    firstSeed = await seedCatalog(app.services.db);
    await loadStockFixture(app.services.db);
  });
  afterAll(() => app?.close());

  const get = <T = Record<string, unknown>>(path: string, headers: Record<string, string> = {}) =>
    app.api.get<PageBody<T> & ErrorBody>(path, { headers });
  const count = async (table: string) =>
    Number(
      (await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(app.services.db))
        .rows[0]!.n,
    );

  it('holds the spec sizes: 1,656 parts, 1,119 makes, 20,524 models, over 105,000 variants; seeds once', async () => {
    // how long seeding takes is a benchmark's business (npm run bench:catalog), not a test's
    expect(firstSeed.seeded).toBe(true);
    expect((await get('/data/catalog/parts?per_page=1')).body.total).toBe(1656);
    expect((await get('/data/catalog/vehicle-makes?per_page=1')).body.total).toBe(1119);
    expect(await count('vehicle_models')).toBe(20524);
    expect(await count('vehicle_variants')).toBeGreaterThanOrEqual(105000);
    expect(await count('vehicle_engines')).toBeGreaterThanOrEqual(await count('vehicle_variants'));
    expect((await seedCatalog(app.services.db)).seeded).toBe(false);
    expect(await count('catalog_parts')).toBe(1656);
  });

  it('names every part in all six languages, each a distinct real name per language', async () => {
    const byLang = await Promise.all(
      LANGS.map(
        async (lang) => (await get<Part>(`/data/catalog/parts?lang=${lang}&per_page=500`)).body.results,
      ),
    );
    for (const results of byLang) {
      expect(results).toHaveLength(500);
      expect(results.every((p) => p.name.length > 3 && !/^(part|peça) \d+$/i.test(p.name))).toBe(true);
    }
    // The same part reads differently in each language.
    const first = byLang.map((results) => results.find((p) => p.id === 100)!.name);
    expect(new Set(first).size).toBeGreaterThanOrEqual(5);

    const pads = await get<Part>('/data/catalog/parts?lang=de&q=Bremsbeläge vorne');
    expect(pads.body.results.map((p) => p.name)).toContain('Bremsbeläge vorne');
    const id = pads.body.results.find((p) => p.name === 'Bremsbeläge vorne')!.id;
    const named = await Promise.all(
      LANGS.map(
        async (lang) =>
          (
            await get<Part>(`/data/catalog/parts?lang=${lang}&per_page=500&page=${Math.ceil(id / 500)}`)
          ).body.results.find((p) => p.id === id)!.name,
      ),
    );
    expect(named).toEqual([
      'Pastilhas de travão dianteiras',
      'Front brake pads',
      'Pastillas de freno delanteras',
      'Plaquettes de frein avant',
      'Bremsbeläge vorne',
      'Pastiglie freno anteriori',
    ]);
  });

  it('filters by q without regard to case or accents, in the chosen language', async () => {
    const accented = await get('/data/catalog/parts?q=TRAVÃO&per_page=500');
    const plain = await get('/data/catalog/parts?q=travao&per_page=500');
    expect(accented.body.total).toBeGreaterThan(10);
    expect(plain.body.total).toBe(accented.body.total);
    const names = (plain.body.results as { name: string }[]).map((p) => p.name);
    expect(names.every((n) => fold(n).includes('travao'))).toBe(true);
    // The same words in another language find nothing: q searches the chosen language's names.
    expect((await get('/data/catalog/parts?q=travao&lang=de')).body.total).toBe(0);
    const makes = await get<{ name: string }>('/data/catalog/vehicle-makes?q=skoda');
    expect(makes.body.results.map((m) => m.name)).toContain('Škoda');
  });

  it('reads q the same way in every list: trimmed, spaces collapsed, blank = no filter', async () => {
    for (const [list, q] of [
      ['fuels', 'gasol'],
      ['parts', 'pastilha'],
      ['vehicle-makes', 'alfa romeo'],
    ] as const) {
      const plain = (await get(`/data/catalog/${list}?q=${encodeURIComponent(q)}`)).body.total;
      expect(plain, list).toBeGreaterThan(0);
      const spaced = `  ${q.replace(' ', '   ')} `;
      expect((await get(`/data/catalog/${list}?q=${encodeURIComponent(spaced)}`)).body.total, list).toBe(
        plain,
      );
      const all = (await get(`/data/catalog/${list}`)).body.total;
      expect((await get(`/data/catalog/${list}?q=%20`)).body.total, list).toBe(all);
    }
  });

  it('spells out ß as unaccent does, and combines q with group and type, as the table counts them', async () => {
    const sharp = await get('/data/catalog/parts?lang=de&q=Außen&per_page=500');
    const spelled = await get('/data/catalog/parts?lang=de&q=aussen&per_page=500');
    const inTable = await sql<{ n: string }>`
      select count(*) as n from catalog_parts where name_fold_de like '%aussen%'`.execute(app.services.db);
    expect(sharp.body.total).toBeGreaterThan(0);
    expect(sharp.body.total).toBe(Number(inTable.rows[0]!.n));
    expect(spelled.body.results).toEqual(sharp.body.results);

    const { group_code: group, type_code: type } = await app.services.db
      .selectFrom('catalog_parts')
      .select(['group_code', 'type_code'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const filtered = await get<Part>(`/data/catalog/parts?group=${group}&type=${type}&q=a&per_page=500`);
    const expected = await sql<{ id: number }>`
      select id from catalog_parts
      where group_code = ${group} and type_code = ${type} and name_fold_pt like '%a%' order by id`.execute(
      app.services.db,
    );
    expect(filtered.body.results.map((p) => p.id)).toEqual(expected.rows.map((r) => r.id));
    expect(filtered.body.total).toBe(expected.rows.length);
  });

  it('reads the parts catalog again a minute later, answering from the copy in hand meanwhile', async () => {
    let now = 0;
    const snapshot = new PartsSnapshot(app.services.db, () => now);
    const request = { lang: 'en' as const, q: 'zzz test part', page: 1, perPage: 10 };
    expect((await snapshot.list(request)).total).toBe(0);
    await sql`insert into catalog_parts (id, code, group_code, type_code, names)
              select 99001, 'zzz_test', group_code, type_code,
                     jsonb_build_object('pt', 'ZZZ peça', 'en', 'ZZZ test part', 'es', 'ZZZ pieza',
                                        'fr', 'ZZZ pièce', 'de', 'ZZZ Teil', 'it', 'ZZZ pezzo')
              from catalog_parts where id = 1`.execute(app.services.db);
    try {
      now = 59_000;
      expect((await snapshot.list(request)).total).toBe(0);
      now = 60_000;
      // The refresh starts in the background; this answer still comes from the old copy.
      expect((await snapshot.list(request)).total).toBe(0);
      const fresh = await waitFor(
        'the refreshed copy of the parts catalog',
        () => snapshot.list(request),
        (answer) => answer.total > 0,
      );
      expect(fresh).toEqual({
        total: 1,
        results: [expect.objectContaining({ id: 99001, name: 'ZZZ test part' })],
      });
    } finally {
      await sql`delete from catalog_parts where id = 99001`.execute(app.services.db);
    }
  });

  it('paginates long lists with true totals, also past the end', async () => {
    const last = await get('/data/catalog/parts?per_page=500&page=4');
    expect(last.body).toMatchObject({ total: 1656, page: 4, total_pages: 4 });
    expect(last.body.results).toHaveLength(156);
    const past = await get('/data/catalog/parts?per_page=500&page=9');
    expect(past.body).toMatchObject({ total: 1656, total_pages: 4, results: [] });
    const makes = await get('/data/catalog/vehicle-makes?per_page=500&page=3');
    expect(makes.body.results).toHaveLength(1119 - 1000);
  });

  it('walks make → models → variants → engines with technical data', async () => {
    const vw = (
      await get<{ id: number; name: string }>('/data/catalog/vehicle-makes?q=volkswagen')
    ).body.results.find((m) => m.name === 'Volkswagen')!;
    const models = await get<{ id: number; name: string; year_from: number; year_to: number | null }>(
      `/data/catalog/vehicle-models/${vw.id}?per_page=500`,
    );
    // each generation of a line is a model, as sellers name them
    expect(models.body.results.map((m) => m.name)).toEqual(
      expect.arrayContaining(['Golf VI', 'Golf VII', 'Golf VIII', 'Passat B8', 'Polo V', 'Tiguan II']),
    );
    const golf = models.body.results.find((m) => m.name === 'Golf VII')!;
    expect(golf).toMatchObject({ year_from: 2012, year_to: 2020 });
    const variants = await get<Record<string, unknown> & { id: number }>(
      `/data/catalog/vehicle-variants/${golf.id}`,
    );
    expect(variants.body.total).toBeGreaterThanOrEqual(5);
    for (const v of variants.body.results) {
      expect(v).toMatchObject({ model_id: golf.id, year_from: expect.any(Number), fuel: expect.any(String) });
      expect(v.power_hp).toBe(Math.round((v.power_kw as number) * 1.35962));
      expect(v.year_from as number).toBeGreaterThanOrEqual(golf.year_from);
      expect(['hatchback', 'estate', 'sedan']).toContain(v.body_type);
    }
    const engines = await get<{ code: string }>(
      `/data/catalog/vehicle-engines/${variants.body.results[0]!.id}`,
    );
    expect(engines.body.results.map((e) => e.code)).toEqual(variants.body.results[0]!.engine_codes);
  });

  it('lists the five stock conditions of the spec and every coded list in six languages', async () => {
    const names = await Promise.all(
      LANGS.map(
        async (lang) => (await get<CodedEntry>(`/data/catalog/conditions?lang=${lang}`)).body.results,
      ),
    );
    for (const list of names) expect(list.map((c) => c.code)).toEqual(SPEC_CONDITIONS);
    expect(new Set(names.map((list) => list[0]!.name))).toEqual(
      new Set(['Novo', 'New', 'Nuevo', 'Neuf', 'Neu', 'Nuovo']),
    );
    for (const kind of [
      'types',
      'groups',
      'locations',
      'sides',
      'quality',
      'packaging',
      'labelling',
      'fuels',
    ]) {
      const lists = await Promise.all(
        LANGS.map(async (lang) => {
          const res = await get<CodedEntry>(`/data/catalog/${kind}?lang=${lang}&per_page=500`);
          expect(res.status, `${kind} ${lang}`).toBe(200);
          return res.body;
        }),
      );
      const [pt] = lists;
      expect(pt!.total, kind).toBeGreaterThan(1);
      expect(pt!.results, kind).toHaveLength(pt!.total);
      const codes = pt!.results.map((r) => r.code);
      for (const [i, list] of lists.entries()) {
        const lang = LANGS[i]!;
        // the same entries, in the same order, each named
        expect(
          list.results.map((r) => r.code),
          `${kind} ${lang}`,
        ).toEqual(codes);
        for (const entry of list.results)
          expect(entry.name.trim(), `${kind} ${lang} ${entry.code}`).not.toBe('');
      }
      // ...and named in that language: every language's names differ from every other's somewhere
      const namings = new Set(lists.map((list) => JSON.stringify(list.results.map((r) => r.name))));
      expect(namings.size, kind).toBe(LANGS.length);
    }
    const languages = await get<{ code: string; name: string; native_name: string }>(
      '/data/catalog/languages?lang=en',
    );
    expect(languages.body.results).toContainEqual({ code: 'de', name: 'German', native_name: 'Deutsch' });
    expect(languages.body.total).toBe(6);
  });

  it('lists every ISO 3166-1 country in six languages, searchable without accents', async () => {
    const iso = Object.keys(countries.getAlpha2Codes()).length;
    for (const lang of LANGS) {
      const res = await get<Country>(`/data/catalog/countries?lang=${lang}&per_page=500`);
      expect(res.body.total).toBe(iso);
      expect(res.body.results.every((c) => c.name && /^[A-Z]{2}$/.test(c.code))).toBe(true);
    }
    const de = await get<Country>('/data/catalog/countries?lang=de&q=osterreich');
    expect(de.body.results).toEqual([{ code: 'AT', name: 'Österreich' }]);
    const pt = await get<Country>('/data/catalog/countries?lang=pt&q=alemanha');
    expect(pt.body.results.map((c) => c.code)).toEqual(['DE']);
  });

  it('answers 404 for unknown ids and 400 for non-numeric ids, bad lang or per_page', async () => {
    const unknown = await get('/data/catalog/vehicle-models/999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CATALOG_ENTRY_NOT_FOUND');
    // Asked again (page cache): still a 404, not a remembered empty page.
    expect((await get('/data/catalog/vehicle-models/999999')).status).toBe(404);
    // A known make whose filter matches nothing is an empty page, not a 404.
    const none = await get('/data/catalog/vehicle-models/1?q=zzzzzz');
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ total: 0, total_pages: 0, results: [] });
    expect((await get('/data/catalog/vehicle-variants/999999')).status).toBe(404);
    expect((await get('/data/catalog/vehicle-engines/999999')).status).toBe(404);
    const text = await get('/data/catalog/vehicle-models/abc');
    expect(text.status).toBe(400);
    expect(text.body.mensagem).toContain('caminho.makeId');
    const lang = await get('/data/catalog/parts?lang=xx');
    expect(lang.status).toBe(400);
    expect(lang.body.mensagem).toContain('pt, en, es, fr, de, it');
    expect((await get('/data/catalog/parts?per_page=501')).status).toBe(400);
    // a page whose offset no database integer holds is refused, in memory and in SQL lists alike
    for (const path of ['vehicle-makes?page=99999999999999999999', 'types?page=1e300', 'parts?page=1e400']) {
      const far = await get(`/data/catalog/${path}`);
      expect(far.status, path).toBe(400);
      expect(far.body.mensagem, path).toContain('query.page');
    }
    expect((await get('/data/catalog/vehicle-makes?page=1000000')).body).toMatchObject({ results: [] });
    // numbers in a query string or path are plain decimals: not hex, exponents, spaces or "1.0"
    for (const path of [
      'parts?per_page=0x10',
      'parts?page=1e3',
      'vehicle-models/1.0',
      'vehicle-models/%20%31',
    ]) {
      const loose = await get(`/data/catalog/${path}`);
      expect(loose.status, path).toBe(400);
      expect(loose.body.mensagem, path).toContain('decimal');
    }
    expect((await get('/data/catalog/parts?per_page=16')).status).toBe(200);
  });

  it('sends ETag and Cache-Control, answers 304 to a matching If-None-Match, and compresses', async () => {
    const first = await get('/data/catalog/parts?per_page=200');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    // fetch() adds Cache-Control: no-cache to a request with If-None-Match; a plain client does not.
    const status = await new Promise<number>((resolve, reject) =>
      httpGet(
        `${app.baseUrl}/data/catalog/parts?per_page=200`,
        { headers: { 'If-None-Match': etag! } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      ).on('error', reject),
    );
    expect(status).toBe(304);
    const gz = await fetch(`${app.baseUrl}/data/catalog/parts?per_page=200`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect((await get('/data/catalog/brands')).headers.get('cache-control')).toBe('public, max-age=60');
  });
});

/** The lists derived from the stock come from the search engine: the same answers on both. */
describe.each(ENGINES)('stock-derived catalogs on the %s engine', (engine) => {
  let app: EngineApp;

  beforeAll(async () => {
    app = await startEngineApp(engine, (db) => loadStockFixture(db));
  });
  afterAll(() => app?.close());

  const get = <T = Record<string, unknown>>(path: string) => app.api.get<PageBody<T> & ErrorBody>(path);

  /** folded value → items, over the fixture items `key` gives a value for */
  const countBy = (
    items: typeof FIXTURE_ITEMS,
    key: (i: (typeof FIXTURE_ITEMS)[number]) => string | undefined,
  ) => {
    const counts = new Map<string, number>();
    for (const item of items) {
      const value = key(item);
      if (value) counts.set(fold(value), (counts.get(fold(value)) ?? 0) + 1);
    }
    return counts;
  };
  const listed = (results: { name: string; items: number }[]) =>
    new Map(results.map((r) => [fold(r.name), r.items]));

  it('derives brands, models and variants from the stock, with item counts', async () => {
    const brands = await get<StockName>('/data/catalog/brands');
    expect(countBy(FIXTURE_ITEMS, (i) => i.make).size).toBeGreaterThan(1);
    expect(listed(brands.body.results)).toEqual(countBy(FIXTURE_ITEMS, (i) => i.make));

    const volkswagens = FIXTURE_ITEMS.filter((i) => i.make && fold(i.make) === 'volkswagen');
    const models = await get<StockName>(`/data/catalog/models/${encodeURIComponent('VOLKSWÄGEN')}`);
    expect(countBy(volkswagens, (i) => i.model).size).toBeGreaterThan(1);
    expect(listed(models.body.results)).toEqual(countBy(volkswagens, (i) => i.model));

    const golfVii = FIXTURE_ITEMS.filter((i) => i.model && fold(i.model) === 'golf vii');
    const variants = await get<StockName>(`/data/catalog/variants/${encodeURIComponent('golf vii')}`);
    expect(countBy(golfVii, (i) => i.variant).size).toBeGreaterThan(1);
    expect(listed(variants.body.results)).toEqual(countBy(golfVii, (i) => i.variant));
    expect((await get('/data/catalog/models/marca-inexistente')).body).toMatchObject({
      total: 0,
      results: [],
    });
  });
});
