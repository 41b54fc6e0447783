import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';
import { TEST_DATABASE_URL } from '../helpers/test-env.js';
import { runScript } from '../helpers/run-script.js';

const dir = mkdtempSync(join(tmpdir(), 'pss-import-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content.trimStart());
  return path;
};
const importFile = (path: string, kind: string, env: Record<string, string>) =>
  runScript('catalog-import.ts', [path, '--kind', kind], { LOG_LEVEL: 'silent', ...env });

const makesCsv = file(
  'makes.csv',
  `
id,name,country_code
9001,Oficina Motors,PT
9002,Ibérica Autos,ES
`,
);
const modelsJsonl = file(
  'models.jsonl',
  `
{"id": 9101, "make_id": 9001, "name": "Lusitano", "year_from": 2019, "year_to": 2024}
{"id": 9102, "make_id": 9002, "name": "Toledano", "year_from": 2021}
`,
);
const badModels = file(
  'bad-models.jsonl',
  `
{"id": 9201, "make_id": 9001, "name": "Certo"}
{"id": "nove", "make_id": 9001, "name": "Id errado"}
isto não é JSON
{"id": 9204, "make_id": 123456, "name": "Sem marca"}
{"id": 9201, "make_id": 9001, "name": "Repetido"}
{"id": 9206, "make_id": 9001, "name": "Ano", "year_from": 1200}
`,
);
const partsCsv = file(
  'parts.csv',
  `
id;code;group;type;side;name_pt;name_en;name_es;name_fr;name_de;name_it
9001;mirror_left_custom;glazing;mirror;left;Espelho esquerdo;Left mirror;Espejo izquierdo;Rétroviseur gauche;Spiegel links;Specchietto sinistro
`,
);

// Each case starts the CLI (tsx, migrations): slow on a loaded 2-core machine.
describe.skipIf(!TEST_DATABASE_URL)('npm run catalog:import on PostgreSQL', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url!, SEARCH_TOKEN_SECRET: 'import-test-secret-import-test-secret-00' };
  });
  afterAll(() => database?.drop());

  const models = () =>
    database.handle.db
      .selectFrom('vehicle_models')
      .select(['id', 'make_id', 'name', 'year_from', 'year_to'])
      .orderBy('id')
      .execute();

  it('imports a good CSV and a good JSON Lines file, parents first', async () => {
    const makes = await importFile(makesCsv, 'vehicle-makes', env);
    expect(makes.code).toBe(0);
    expect(makes.stdout).toContain('Importados 2 registos (vehicle-makes)');
    const loaded = await importFile(modelsJsonl, 'vehicle-models', env);
    expect(loaded.code).toBe(0);
    expect(await models()).toEqual([
      { id: 9101, make_id: 9001, name: 'Lusitano', year_from: 2019, year_to: 2024 },
      { id: 9102, make_id: 9002, name: 'Toledano', year_from: 2021, year_to: null },
    ]);
  });

  it('reports every bad row with its line number and writes nothing', async () => {
    const before = await models();
    const run = await importFile(badModels, 'vehicle-models', env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Nada foi importado: 5 linha(s)');
    expect(run.stderr).toMatch(/linha 2: .*registo\.id deve ser número inteiro/);
    expect(run.stderr).toMatch(/linha 3: JSON inválido/);
    expect(run.stderr).toMatch(/linha 4: make_id 123456 não existe/);
    expect(run.stderr).toMatch(/linha 5: chave repetida \(9201\); já na linha 1/);
    expect(run.stderr).toMatch(/linha 6: .*registo\.year_from/);
    expect(await models()).toEqual(before);
  });

  it('is idempotent: the same file again changes nothing; a changed row is updated in place', async () => {
    const before = await models();
    expect((await importFile(modelsJsonl, 'vehicle-models', env)).code).toBe(0);
    expect(await models()).toEqual(before);
    const renamed = file(
      'renamed.jsonl',
      '{"id": 9102, "make_id": 9002, "name": "Toledano II", "year_from": 2022}\n',
    );
    expect((await importFile(renamed, 'vehicle-models', env)).code).toBe(0);
    expect((await models()).find((m) => m.id === 9102)).toMatchObject({
      name: 'Toledano II',
      year_from: 2022,
    });
    expect(await models()).toHaveLength(2);
  });

  it('imports parts with their six names and lists by code, and refuses an unknown kind', async () => {
    expect((await importFile(partsCsv, 'parts', env)).code).toBe(0);
    const part = await database.handle.db
      .selectFrom('catalog_parts')
      .selectAll()
      .where('id', '=', 9001)
      .executeTakeFirstOrThrow();
    expect(part).toMatchObject({
      code: 'mirror_left_custom',
      side_code: 'left',
      names: { de: 'Spiegel links', it: 'Specchietto sinistro' },
    });
    const fuels = file(
      'fuels.csv',
      'code,name_pt,name_en,name_es,name_fr,name_de,name_it\nbiodiesel,Biodiesel,Biodiesel,Biodiésel,Biodiesel,Biodiesel,Biodiesel\n',
    );
    expect((await importFile(fuels, 'fuels', env)).code).toBe(0);
    expect((await importFile(fuels, 'fuels', env)).code).toBe(0);
    const rows = await database.handle.db
      .selectFrom('catalog_lists')
      .select('code')
      .where('kind', '=', 'fuels')
      .execute();
    expect(rows.map((r) => r.code)).toEqual(['biodiesel']);
    const unknown = await importFile(fuels, 'planetas', env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('tipo de catálogo desconhecido: planetas');
  });

  it('says in Portuguese what its command line lacks, and its help', async () => {
    const run = (...args: string[]) => runScript('catalog-import.ts', args, { LOG_LEVEL: 'silent', ...env });
    const noKind = await run(partsCsv);
    expect(noKind.code).toBe(1);
    expect(noKind.stderr).toBe('Erro: Falta a opção obrigatória --kind <tipo>.\n');
    const noFile = await run('--kind', 'parts');
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toBe('Erro: Falta o argumento obrigatório <ficheiro>.\n');
    const help = await run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Utilização: catalog:import \[opções\] <ficheiro>\n/);
    expect(help.stdout).toMatch(/\nArgumentos:\n {2}ficheiro +ficheiro \.csv, \.jsonl ou \.ndjson\n/);
    expect(help.stdout).toMatch(/-h, --help +mostra esta ajuda/);
  });
});

describe('npm run catalog:import on the embedded database', { timeout: 120_000 }, () => {
  it('writes into the PGlite under DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pss-import-pglite-'));
    const run = await importFile(makesCsv, 'vehicle-makes', { DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    const handle = await openDatabase({ url: null, dataDir });
    try {
      const names = await handle.db.selectFrom('vehicle_makes').select('name').orderBy('id').execute();
      expect(names.map((n) => n.name)).toEqual(['Oficina Motors', 'Ibérica Autos']);
    } finally {
      await handle.close();
    }
  });
});
