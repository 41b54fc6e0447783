import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enableOutbox } from '../../indexer/outbox.js';
import type { Database } from '../../src/db/database.js';
import { tellMissingLanguages } from '../../src/stock/listing-languages-backfill.js';
import { runScript } from '../helpers/run-script.js';
import { languageListing, loadStockFixture, type FixtureItem } from '../helpers/stock-fixture.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { DATABASE_KINDS, TEST_DATABASE_URL } from '../helpers/test-env.js';

/** Listings written before items carried a language (text_language null), and one already told. */
const LISTINGS: FixtureItem[] = [
  languageListing(1, 'Disco de travão dianteiro ventilado', 'Disco de travão original, em muito bom estado'),
  languageListing(2, 'Disco de freno delantero ventilado', 'Disco usado en muy buen estado, sin golpes'),
  languageListing(3, 'Front brake disc, vented', 'Genuine part in very good condition'),
  languageListing(4, 'Bremsscheibe vorne belüftet', 'Originalteil in sehr gutem Zustand, geprüft'),
  // too few words to tell a language from: left null
  languageListing(5, 'Filtro 1K0'),
  languageListing(6, '04E 115 561 H'),
  // told already (by a feed): never read again
  languageListing(7, 'Filtro de óleo para motor diesel', 'Peça nova na caixa', 'pt'),
];
const EXPECTED = { 1: 'pt', 2: 'es', 3: 'en', 4: 'de', 5: null, 6: null, 7: 'pt' } as const;

interface Row {
  id: string;
  version: string;
  updated_at: Date;
  text_language: string | null;
}

const rows = async (db: Database) =>
  new Map(
    (
      await sql<Row>`select id, version, updated_at, text_language from stock_items order by id`.execute(db)
    ).rows.map((r) => [Number(r.id), r]),
  );

const languages = async (db: Database) =>
  Object.fromEntries([...(await rows(db))].map(([id, r]) => [id, r.text_language]));

describe.each(DATABASE_KINDS)(
  'telling the language of items written before they carried one (%s)',
  (kind) => {
    let database: TestDatabase;
    const db = () => database.handle.db;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      await loadStockFixture(db(), LISTINGS);
      await enableOutbox(db());
    });
    afterAll(() => database?.drop());

    it('writes each language it can tell, with a new version owed to the index and the seller’s updated_at kept', async () => {
      const before = await rows(db());
      await sql`update search_outbox set done_at = now() where done_at is null`.execute(db());

      const outcome = await tellMissingLanguages(db(), { batchSize: 2 });

      expect(outcome).toEqual({ read: 6, told: { pt: 1, es: 1, en: 1, de: 1 }, untold: 2, skipped: 0 });
      expect(await languages(db())).toEqual(EXPECTED);
      const after = await rows(db());
      for (const id of [1, 2, 3, 4]) {
        expect(Number(after.get(id)!.version), `item ${id}`).toBeGreaterThan(Number(before.get(id)!.version));
        expect(after.get(id)!.updated_at).toEqual(before.get(id)!.updated_at);
      }
      for (const id of [5, 6, 7]) expect(after.get(id)!.version).toBe(before.get(id)!.version);
      // each told item is owed to the index at its new version, nothing else
      const owed = await sql<{ item_id: string; version: string }>`
      select item_id, version from search_outbox where done_at is null order by item_id`.execute(db());
      expect(owed.rows.map((r) => [Number(r.item_id), Number(r.version)])).toEqual(
        [1, 2, 3, 4].map((id) => [id, Number(after.get(id)!.version)]),
      );
    });

    it('a second pass reads only the items still without one, and writes nothing', async () => {
      const before = await rows(db());
      expect(await tellMissingLanguages(db())).toEqual({ read: 2, told: {}, untold: 2, skipped: 0 });
      expect(await rows(db())).toEqual(before);
    });
  },
);

describe.skipIf(!TEST_DATABASE_URL)('telling languages beside other writers (PostgreSQL)', () => {
  let database: TestDatabase;
  const db = () => database.handle.db;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await loadStockFixture(db(), LISTINGS);
  });
  afterAll(() => database?.drop());

  it('never waits for a row another transaction holds: it is left for a later pass, which tells it', async () => {
    const holder = new pg.Client({ connectionString: database.url! });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from stock_items where id = 2 for update');
      const outcome = await tellMissingLanguages(db());
      expect(outcome).toEqual({ read: 6, told: { pt: 1, en: 1, de: 1 }, untold: 2, skipped: 1 });
      expect((await languages(db()))[2]).toBeNull();
      await holder.query('rollback');
    } finally {
      await holder.end();
    }
    expect(await tellMissingLanguages(db())).toEqual({ read: 3, told: { es: 1 }, untold: 2, skipped: 0 });
    expect(await languages(db())).toEqual(EXPECTED);
  });

  it('npm run stock:languages says what it told, by language; its help and a bad batch size are said in Portuguese', async () => {
    await sql`update stock_items set text_language = null where id <> 7`.execute(db());
    const env = { DATABASE_URL: database.url!, LOG_LEVEL: 'silent' };
    const run = await runScript('stock-languages.ts', ['--batch', '3'], env);
    expect(run.stderr).not.toMatch(/Erro/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Artigos sem língua lidos: 6 /);
    expect(run.stdout).toMatch(/com a língua indicada: +4 \(pt 1, en 1, es 1, de 1\)/);
    expect(run.stdout).toMatch(/sem língua reconhecível: 2 /);
    expect(run.stdout).not.toMatch(/deixados para depois/);
    // without a terminal (a log), the progress is written as lines, from the start to the end
    expect(run.stderr).toMatch(/^stock:languages 0% \| 0\/6 artigos \| ETA /);
    expect(run.stderr).toMatch(/\nstock:languages 100% \| 6\/6 artigos \| ETA 0s\n$/);
    expect(await languages(db())).toEqual(EXPECTED);

    const refused = await runScript('stock-languages.ts', ['--batch', '0'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Erro: .*"0" não é válido: indique um número inteiro de 1 a 10000\./);

    const help = await runScript('stock-languages.ts', ['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Utilização: stock:languages \[opções\]/);
    expect(help.stdout).toMatch(/--batch <n> +artigos por transação, de 1 a 10000 \(por omissão: 2000\)/);
    expect(help.stdout).not.toMatch(/default|Options/);
  });
});
