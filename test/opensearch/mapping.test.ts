import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mappingVersion, stockIndexDefinition } from '../../indexer/index-admin.js';
import { rebuildIndex } from '../../indexer/rebuild.js';
import { OpenSearchEngine } from '../../src/search/opensearch/opensearch-engine.js';
import {
  facetsBody,
  histogramBody,
  pageBody,
  priceAtRankBody,
  searchBody,
  statsBody,
} from '../../src/search/opensearch/queries.js';
import { normalizeReference } from '../../src/search/references.js';
import { clusterClient, dropAlias, TEST_OPENSEARCH_URL, uniqueAlias } from '../helpers/opensearch.js';
import { FIXTURE_ITEMS, loadStockFixture, type FixtureItem } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { stockQuery } from '../../src/search/stock-query.js';

interface FieldMapping {
  type?: string;
  index?: boolean;
  ignore_above?: number;
  fields?: Record<string, FieldMapping>;
  properties?: Record<string, FieldMapping>;
}

/** Every field of a mapping, sub-fields as `field.sub`. */
function fieldsOf(properties: Record<string, FieldMapping>, prefix = ''): [string, FieldMapping][] {
  return Object.entries(properties).flatMap(([name, field]) => [
    [prefix + name, field] as [string, FieldMapping],
    ...fieldsOf(field.fields ?? {}, `${prefix}${name}.`),
    ...fieldsOf(field.properties ?? {}, `${prefix}${name}.`),
  ]);
}

/** The field names a request body refers to (filters, sorts, aggregations, multi_match lists). */
function fieldsUsed(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(fieldsUsed);
  if (!body || typeof body !== 'object') return [];
  return Object.entries(body).flatMap(([key, value]) => {
    if (key === 'field' && typeof value === 'string') return [value];
    if (key === 'fields' && Array.isArray(value)) return value as string[];
    if (['term', 'prefix', 'range', 'match'].includes(key) && value && typeof value === 'object')
      return Object.keys(value);
    if (key === 'sort' && Array.isArray(value))
      return value.flatMap((s) => Object.keys(s as object)).filter((f) => f !== '_score');
    return fieldsUsed(value);
  });
}

/** Every field any request of the engine names, with a query that sets every filter. */
function queriedFields(): string[] {
  const everything = stockQuery({
    reference: 'X',
    vehicleMake: 'm',
    vehicleModel: 'm',
    partId: 1,
    condition: 'novo',
    isOem: true,
    isAftermarket: false,
    country: 'PT',
    priceMin: 1,
    priceMax: 2,
    text: 'a b',
  });
  return [
    ...fieldsUsed(searchBody(everything, { page: 1, perPage: 10 }, { withStats: true })),
    ...fieldsUsed(statsBody(everything)),
    ...fieldsUsed(
      histogramBody(everything, [
        { from: 1, to: 2 },
        { from: 2, to: 3 },
      ]),
    ),
    ...fieldsUsed(priceAtRankBody(everything, 0, 'price_cents')),
    ...fieldsUsed(priceAtRankBody(everything, 0, 'price')),
    ...(['make', 'model', 'variant'] as const).flatMap((field) =>
      fieldsUsed(facetsBody({ field, make: 'm', model: 'm' })),
    ),
  ];
}

const covers = (used: string[], field: string) =>
  used.some((u) => u === field || (u.endsWith('.*') && field.startsWith(u.slice(0, -1))));

/** mappings/stock.json on the live cluster: accepted, and its analysis as the queries assume it. */
describe.skipIf(!TEST_OPENSEARCH_URL)('the stock mapping on the live cluster', () => {
  let client: Client;
  const alias = uniqueAlias('mapping');
  /** an index made straight from mappings/stock.json, for _analyze */
  const bareAlias = uniqueAlias('analysis');
  const bare = `${bareAlias}_v1`;

  beforeAll(async () => {
    client = clusterClient();
  });
  afterAll(async () => {
    await dropAlias(client, alias);
    await dropAlias(client, bareAlias);
    await client.close();
  });

  it('is accepted as it is', async () => {
    const created = await client.indices.create({ index: bare, body: stockIndexDefinition() });
    expect(created.body.acknowledged).toBe(true);
  });

  const normalized = async (normalizer: string, text: string) =>
    (await client.indices.analyze({ index: bare, body: { normalizer, text } })).body.tokens!.map(
      (t) => t.token,
    );
  const analyzed = async (analyzer: string, text: string) =>
    (await client.indices.analyze({ index: bare, body: { analyzer, text } })).body.tokens!.map(
      (t) => t.token,
    );

  it('normalizes references as the API does: case, spaces, - . / _ stripped', async () => {
    const cases: [string, string][] = [
      ['1K0 615 301 AA', '1k0615301aa'],
      ['1k0-615-301-aa', '1k0615301aa'],
      ['09.9145.11', '09914511'],
      ['W 712/95', 'w71295'],
      ['34_11_6  792\t219', '34116792219'],
      ['a_b-c.d/e f', 'abcdef'],
    ];
    for (const [reference, expected] of cases) {
      expect(await normalized('reference', reference), reference).toEqual([expected]);
      // what the engine asks for (src/search/opensearch/queries.ts) is what was indexed
      expect(normalizeReference(reference).toLowerCase()).toBe(expected);
    }
  });

  it('folds makes and models: case and accents', async () => {
    expect(await normalized('folded', 'CITROËN')).toEqual(['citroen']);
    expect(await normalized('folded', 'Série 3 (F30)')).toEqual(['serie 3 (f30)']);
  });

  it('folded_text (what text matches on) cuts words at anything but a letter or a digit, lower-cased and folded, in all six languages', async () => {
    const sentences: [string, string[]][] = [
      ['Pastilhas de TRAVÃO, ação', ['pastilhas', 'de', 'travao', 'acao']],
      ['Café-style brake discs', ['cafe', 'style', 'brake', 'discs']],
      ['Neumáticos pequeños: camión', ['neumaticos', 'pequenos', 'camion']],
      ['Rétroviseur arrière (façade)', ['retroviseur', 'arriere', 'facade']],
      ['Außenspiegel für Größe 2.0TDI', ['aussenspiegel', 'fur', 'grosse', '2', '0tdi']],
      ['Più città, perché', ['piu', 'citta', 'perche']],
    ];
    for (const [text, tokens] of sentences) expect(await analyzed('folded_text', text), text).toEqual(tokens);
  });

  /** Per language: accented and plain spellings, a plural and its singular, and a stop word. */
  const LANGUAGES: Record<string, { same: [string, string][]; stop: string }> = {
    pt: {
      same: [
        ['travão', 'travao'],
        ['peças', 'peca'],
        ['faróis', 'farol'],
        ['óleo', 'oleo'],
      ],
      stop: 'para',
    },
    en: {
      same: [
        ['café', 'cafe'],
        ['discs', 'disc'],
        ['naïve', 'naive'],
        ['brakes', 'brake'],
      ],
      stop: 'the',
    },
    es: {
      same: [
        ['camión', 'camion'],
        ['neumáticos', 'neumatico'],
        ['discos', 'disco'],
        ['pequeños', 'pequenos'],
      ],
      stop: 'el',
    },
    fr: {
      same: [
        ['rétroviseur', 'retroviseur'],
        ['arrière', 'arriere'],
        ['phares', 'phare'],
        ['façade', 'facade'],
      ],
      stop: 'les',
    },
    de: {
      same: [
        ['Größe', 'grosse'],
        ['Außenspiegel', 'aussenspiegel'],
        ['Bremsscheiben', 'Bremsscheibe'],
        ['Türen', 'Tür'],
      ],
      stop: 'die',
    },
    it: {
      same: [
        ['città', 'citta'],
        ['dischi', 'disc'],
        ['velocità', 'velocita'],
        ['qualità', 'qualita'],
      ],
      stop: 'dei',
    },
  };

  it('each language analyzer (pt en es fr de it) folds accents after stemming, and drops its stop words', async () => {
    for (const [language, { same, stop }] of Object.entries(LANGUAGES)) {
      const analyzer = `${language}_folded`;
      for (const [accented, plain] of same) {
        const tokens = await analyzed(analyzer, accented);
        expect(tokens, `${analyzer} ${accented}`).toHaveLength(1);
        expect(tokens[0], `${analyzer} ${accented}`).toMatch(/^[a-z0-9]+$/);
        expect(await analyzed(analyzer, plain), `${analyzer} ${accented} / ${plain}`).toEqual(tokens);
      }
      expect(await analyzed(analyzer, stop), `${analyzer} stop word ${stop}`).toEqual([]);
    }
  });

  it('each language analyzer keeps words of letters: an elided article is a word apart, numbers and codes are left to text_all', async () => {
    // with words cut at apostrophes, the noun after an elision ranks as the noun does alone
    expect(await analyzed('fr_folded', "l'huile")).toEqual(await analyzed('fr_folded', 'huile'));
    expect(await analyzed('it_folded', "dell'olio")).toEqual(await analyzed('it_folded', 'olio'));
    for (const language of Object.keys(LANGUAGES)) {
      const tokens = await analyzed(`${language}_folded`, 'W222 2.0 TDI 136cv');
      expect(tokens, language).toEqual(['w', 'tdi', 'cv']);
    }
    // what decides what is found still cuts at anything but a letter or a digit
    expect(await analyzed('folded_text', 'W222 2.0 TDI 136cv')).toEqual(['w222', '2', '0', 'tdi', '136cv']);
  });

  describe('an index built from PostgreSQL by the indexer', () => {
    let database: TestDatabase;
    const long: FixtureItem = {
      id: 9001,
      vendorId: 1,
      reference: 'LONG-MODEL-1000',
      title: 'Modelo com nome muito comprido',
      condition: 'novo',
      price: 1,
      make: 'Longa',
      model: 'M'.repeat(1_000),
      country: 'PT',
    };
    /** longer than any term the index can hold (32,766 bytes): kept only because it is not indexed */
    const huge: FixtureItem = { ...long, id: 9002, reference: 'HUGE-MODEL', model: 'Ω'.repeat(20_000) };
    /** one listing in three languages: two known, one not */
    const inLanguage = (id: number, title: string, language?: FixtureItem['language']): FixtureItem => ({
      ...long,
      id,
      reference: `LANG-${id}`,
      title,
      make: 'Idiomas',
      model: 'Idiomas',
      language,
    });
    const listings = [
      inLanguage(9101, 'Filtros de óleo novos', 'pt'),
      inLanguage(9102, 'New oil filters', 'en'),
      inLanguage(9103, 'Filters Filtros', undefined),
    ];

    beforeAll(async () => {
      database = await createTestDatabase();
      await loadStockFixture(database.handle.db, [...FIXTURE_ITEMS, long, huge, ...listings]);
      await rebuildIndex(database.handle.db, client, alias);
    });
    afterAll(() => database?.drop());

    it('carries the mapping version, ignore_above on every indexed keyword, and no sub-field no query uses', async () => {
      const answer = await client.indices.getMapping({ index: alias });
      const mappings = Object.values(answer.body)[0]!.mappings as {
        _meta?: { mapping_version?: number };
        properties: Record<string, FieldMapping>;
      };
      expect(mappings._meta?.mapping_version).toBe(mappingVersion());
      const fields = fieldsOf(mappings.properties);
      const unbounded = fields
        .filter(([, f]) => f.type === 'keyword' && f.index !== false && f.ignore_above === undefined)
        .map(([name]) => name);
      expect(unbounded).toEqual([]);
      const used = queriedFields();
      const subFields = fields.map(([name]) => name).filter((name) => name.includes('.'));
      expect(subFields.filter((name) => !covers(used, name))).toEqual([]);
      // the ones the first mapping had
      for (const gone of [
        'title.pt',
        'description.en',
        'references_norm.prefix',
        'vehicle_make.text',
        'vehicle_model.text',
      ])
        expect(subFields).not.toContain(gone);
    });

    it('indexes what pages sort by, so that an uncounted page stops sorting at the page', async () => {
      const answer = await client.indices.getMapping({ index: alias });
      const properties = (
        Object.values(answer.body)[0]!.mappings as { properties: Record<string, FieldMapping> }
      ).properties;
      const sortedBy = pageBody(stockQuery({ vehicleMake: 'm' }), { page: 1, perPage: 10 }).sort as Record<
        string,
        unknown
      >[];
      const fields = sortedBy.map((s) => Object.keys(s)[0]!);
      expect(fields).toEqual(['price_cents', 'id']);
      for (const field of fields) expect(properties[field], field).toMatchObject({ type: 'long' });
      expect(fields.filter((field) => properties[field]!.index === false)).toEqual([]);
    });

    it('keeps its documents in the order pages without text are read in, so that a page reads only its own items', async () => {
      const sortedBy = pageBody(stockQuery({ vehicleMake: 'm' }), { page: 1, perPage: 10 }).sort as Record<
        string,
        { order: string }
      >[];
      const answer = await client.indices.getSettings({ index: alias });
      const sort = (Object.values(answer.body)[0]!.settings as { index: { sort?: Record<string, unknown> } })
        .index.sort;
      expect(sort).toMatchObject({
        field: sortedBy.map((s) => Object.keys(s)[0]!),
        order: sortedBy.map((s) => Object.values(s)[0]!.order),
      });
    });

    it("analyses a listing's text in its language only, in all six when it is not known, and stores none of it twice", async () => {
      const holding = (field: string) => inListings({ exists: { field } });
      const matching = (field: string, word: string) => inListings({ match: { [field]: word } });
      const inListings = async (query: object) => {
        const answer = await client.search({
          index: alias,
          body: {
            query: { bool: { must: query, filter: { term: { vehicle_make: 'idiomas' } } } },
            _source: false,
            size: 10,
          },
        });
        return answer.body.hits.hits.map((h) => Number(h._id)).sort();
      };
      expect(await holding('text_lang.pt')).toEqual([9101, 9103]);
      expect(await holding('text_lang.en')).toEqual([9102, 9103]);
      for (const other of ['es', 'fr', 'de', 'it'])
        expect(await holding(`text_lang.${other}`)).toEqual([9103]);
      // "filter" is the English stem of "filters", "filtr" the Portuguese one of "filtros"
      expect(await matching('text_lang.en', 'filter')).toEqual([9102, 9103]);
      expect(await matching('text_lang.pt', 'filtro')).toEqual([9101, 9103]);
      expect(await matching('text_lang.de', 'filters')).toEqual([9103]);
      const stored = await client.get({ index: alias, id: '9101' });
      expect(stored.body._source).not.toHaveProperty('text_lang');
      expect(stored.body._source).toMatchObject({ title: 'Filtros de óleo novos' });
    });

    it('finds a listing by its words whatever its language: the language orders, never decides', async () => {
      const engine = OpenSearchEngine.connect(TEST_OPENSEARCH_URL!, { index: alias });
      try {
        const found = await engine.search(stockQuery({ text: 'filters', vehicleMake: 'idiomas' }), {
          page: 1,
          perPage: 10,
        });
        expect(found.items.map((i) => i.id).sort()).toEqual([9102, 9103]);
        const filtros = await engine.search(stockQuery({ text: 'filtros', vehicleMake: 'idiomas' }), {
          page: 1,
          perPage: 10,
        });
        expect(filtros.items.map((i) => i.id).sort()).toEqual([9101, 9103]);
      } finally {
        await engine.close();
      }
    });

    it('indexes an item whose vehicle model is 1,000 characters, or longer than a term can be', async () => {
      for (const item of [long, huge]) {
        const found = await client.get({ index: alias, id: String(item.id) }, { ignore: [404] });
        expect(found.body.found, `item ${item.id}`).toBe(true);
      }
      const engine = OpenSearchEngine.connect(TEST_OPENSEARCH_URL!, { index: alias });
      try {
        const byMake = await engine.search(stockQuery({ vehicleMake: 'longa' }), { page: 1, perPage: 10 });
        expect(byMake.items.map((i) => i.id).sort()).toEqual([long.id, huge.id]);
        expect(byMake.items.find((i) => i.id === long.id)!.vehicleModel).toBe(long.model);
      } finally {
        await engine.close();
      }
    });
  });
});
