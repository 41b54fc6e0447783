import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/error-codes.js';
import { ServiceError } from '../../src/errors.js';
import { parseSearchBody } from '../../src/search/search-request.js';
import { DEFAULT_PER_PAGE, type SearchBody } from '../../src/search/search.schemas.js';
import { referenceQuery, stockQuery } from '../../src/search/stock-query.js';

/** The ServiceError parsing `body` throws (the test fails when it parses). */
function refusal(body: SearchBody): ServiceError {
  try {
    parseSearchBody(body);
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error(`parsed without a refusal: ${JSON.stringify(body)}`);
}

/** The English field and its Portuguese alias, with a value each accepts. */
const ALIASES: [keyof SearchBody, keyof SearchBody, string | number][] = [
  ['reference', 'referencia', '1K0 615 301 AA'],
  ['vehicle_make', 'marca_veiculo', 'Volkswagen'],
  ['vehicle_model', 'modelo_veiculo', 'Golf VII'],
  ['part_id', 'parte_id', 7],
  ['text', 'texto', 'pastilhas de travão'],
];

/** The other fields a query needs to be one (vehicle_model alone is not a search). */
const withMake = (field: keyof SearchBody): SearchBody =>
  field === 'vehicle_model' || field === 'modelo_veiculo' ? { vehicle_make: 'Volkswagen' } : {};

describe('parseSearchBody: the Portuguese aliases', () => {
  it.each(ALIASES)('%s and %s are one field: the same query, key and token binding', (en, pt, value) => {
    const english = parseSearchBody({ ...withMake(en), [en]: value });
    const portuguese = parseSearchBody({ ...withMake(en), [pt]: value });
    expect(portuguese.query).toEqual(english.query);
    expect(portuguese.canonical).toEqual(english.canonical);
    expect(portuguese.fieldsHash).toBe(english.fieldsHash);
    expect(portuguese.summary).toBe(english.summary);
    // the alias never reaches the canonical fields under its own name
    expect(Object.keys(portuguese.canonical)).not.toContain(pt);
  });

  it.each(ALIASES)('%s and %s sent with the same value are accepted', (en, pt, value) => {
    const both = parseSearchBody({ ...withMake(en), [en]: value, [pt]: value });
    expect(both.query.key).toBe(parseSearchBody({ ...withMake(en), [en]: value }).query.key);
  });

  it.each(ALIASES)('%s and %s with different values: 400 CONFLICTING_FIELDS naming both', (en, pt, value) => {
    const other = typeof value === 'number' ? value + 1 : `${value} X`;
    const error = refusal({ ...withMake(en), [en]: value, [pt]: other });
    expect(error.code).toBe('CONFLICTING_FIELDS');
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain(en);
    expect(error.message).toContain(pt);
  });
});

describe('parseSearchBody: normalization, done once', () => {
  it('types the reference and normalizes it beside what was typed', () => {
    const { query } = parseSearchBody({ reference: ' 1k0.615-301 / aa_ ' });
    expect(query.reference).toEqual({ typed: ' 1k0.615-301 / aa_ ', normalized: '1K0615301AA' });
    expect(query.canonical).toEqual({ reference: '1K0615301AA' });
  });

  it('keeps the fields as sent for the engines and folds them in the canonical fields only', () => {
    const { query } = parseSearchBody({
      vehicle_make: 'CITROËN',
      vehicle_model: 'Berlingo II',
      text: 'Pastilhas  de TRAVÃO!',
      country: 'pt',
    });
    expect(query).toMatchObject({
      vehicleMake: 'CITROËN',
      vehicleModel: 'Berlingo II',
      text: 'Pastilhas  de TRAVÃO!',
      country: 'PT',
    });
    expect(query.canonical).toEqual({
      vehicle_make: 'citroen',
      vehicle_model: 'berlingo ii',
      text: 'pastilhas de travao',
      country: 'PT',
    });
  });

  it('stockQuery takes a reference already read as it is: nothing reads it again', () => {
    const read = referenceQuery('1k0-615');
    const query = stockQuery({ reference: read });
    expect(query.reference).toBe(read);
    // a reference given as typed is read here, once, the same way
    expect(stockQuery({ reference: '1k0-615' }).reference).toEqual(read);
  });

  it('leaves out of the query and its canonical fields what was not asked', () => {
    const { query } = parseSearchBody({ part_id: 7 });
    expect(Object.keys(query).sort()).toEqual(['canonical', 'key', 'partId']);
    expect(query.canonical).toEqual({ part_id: 7 });
  });
});

describe('parseSearchBody: the canonical key', () => {
  const written: SearchBody[] = [
    {
      reference: '1K0 615 301 AA',
      vehicle_make: 'Volkswagen',
      text: 'Disco de travão',
      condition: 'novo',
      country: 'PT',
      price_min: 10,
      price_max: 99.5,
    },
    {
      referencia: '1k0-615.301/aa',
      marca_veiculo: 'VOLKSWAGEN',
      texto: '  disco, DE travao ',
      condition: 'novo',
      country: 'pt',
      price_min: 10.0,
      price_max: 99.5,
    },
    {
      // the same fields in another order, with the paging and a token that do not name the search
      price_max: 99.5,
      price_min: 10,
      country: 'Pt',
      condition: 'novo',
      text: 'DISCO de Travão',
      vehicle_make: 'volkswagen',
      reference: '1K0615301AA',
      page: 3,
      per_page: 50,
      search_token: 'a-token',
    },
  ];

  it('is the same for the same search written differently, and so are the token binding and the summary', () => {
    const parsed = written.map(parseSearchBody);
    for (const other of parsed.slice(1)) {
      expect(other.query.key).toBe(parsed[0]!.query.key);
      expect(other.fieldsHash).toBe(parsed[0]!.fieldsHash);
      expect(other.summary).toBe(parsed[0]!.summary);
    }
    expect(parsed[0]!.summary).toBe(
      'reference=1K0615301AA, vehicle_make=volkswagen, text=disco de travao, condition=novo, country=PT, price_min=10, price_max=99.5',
    );
  });

  it('differs when the search differs: any one field changed', () => {
    const base = parseSearchBody(written[0]!);
    const changes: SearchBody[] = [
      { reference: '1K0 615 301 AB' },
      { vehicle_make: 'Seat' },
      { text: 'disco de travão traseiro' },
      { condition: 'usado_bom' },
      { country: 'ES' },
      { price_min: 10.01 },
      { price_max: 99 },
      { is_oem: true },
      { is_aftermarket: false },
      { part_id: 7 },
      { vehicle_model: 'Golf' },
    ];
    const keys = changes.map((change) => parseSearchBody({ ...written[0]!, ...change }));
    for (const [i, other] of keys.entries()) {
      expect(other.query.key, JSON.stringify(changes[i])).not.toBe(base.query.key);
      expect(other.fieldsHash, JSON.stringify(changes[i])).not.toBe(base.fieldsHash);
    }
    expect(new Set(keys.map((k) => k.query.key)).size).toBe(changes.length);
  });

  it('carries the page, the page size (default 20) and the token apart from the key', () => {
    const first = parseSearchBody({ reference: 'X1' });
    expect(first).toMatchObject({ page: 1, perPage: DEFAULT_PER_PAGE });
    expect(first).not.toHaveProperty('searchToken');
    const later = parseSearchBody({ reference: 'X1', page: 4, per_page: 10, search_token: 'abc' });
    expect(later).toMatchObject({ page: 4, perPage: 10, searchToken: 'abc' });
    expect(later.fieldsHash).toBe(first.fieldsHash);
    expect(first.fieldsHash).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('parseSearchBody: refusals, each with its code', () => {
  const cases: [string, SearchBody, ErrorCode, string][] = [
    ['a reference of punctuation only', { reference: ' -./_ ' }, 'INVALID_REFERENCE', 'reference'],
    ['an alias reference of punctuation only', { referencia: '--' }, 'INVALID_REFERENCE', 'reference'],
    ['a text without words', { text: '¿!… —' }, 'INVALID_TEXT', 'text'],
    ['a make of blanks', { vehicle_make: '   ' }, 'VALIDATION_ERROR', 'vehicle_make'],
    ['a model of blanks', { vehicle_make: 'Seat', vehicle_model: '  ' }, 'VALIDATION_ERROR', 'vehicle_model'],
    ['no search field', { condition: 'novo', country: 'PT' }, 'MISSING_SEARCH_FIELD', 'reference'],
    ['a model without a make', { vehicle_model: 'Golf' }, 'MISSING_SEARCH_FIELD', 'vehicle_make'],
    ['an empty body', {}, 'MISSING_SEARCH_FIELD', 'part_id'],
    ['a country that is not ISO 3166-1', { part_id: 7, country: 'XX' }, 'INVALID_COUNTRY', 'XX'],
    ['a price_min between two cents', { part_id: 7, price_min: 10.005 }, 'INVALID_PRICE', 'price_min'],
    ['a price_max between two cents', { part_id: 7, price_max: 0.001 }, 'INVALID_PRICE', 'price_max'],
    [
      'price_min above price_max',
      { part_id: 7, price_min: 50, price_max: 49.99 },
      'INVALID_PRICE_RANGE',
      'price_min',
    ],
  ];
  it.each(cases)('%s: 400 %s', (_label, body, code, named) => {
    const error = refusal(body);
    expect(error.code).toBe(code);
    expect(error.kind).toBe('invalid');
    expect(error.message).toContain(named);
  });

  it('accepts what sits just inside those rules', () => {
    expect(parseSearchBody({ reference: 'a-1' }).query.reference?.normalized).toBe('A1');
    expect(parseSearchBody({ text: 'é' }).query.canonical).toEqual({ text: 'e' });
    const prices = parseSearchBody({ part_id: 7, price_min: 0.29, price_max: 0.29 }).query;
    expect(prices).toMatchObject({ priceMin: 0.29, priceMax: 0.29 });
    expect(parseSearchBody({ part_id: 7, country: 'gb' }).query.country).toBe('GB');
  });
});
