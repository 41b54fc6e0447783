import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDemo, type DemoAccount } from '../../src/demo/prepare-demo.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import type { BrandsAnswer, SearchAnswer } from '../../web/src/api-types.js';

const ITEMS = 3_000;

interface Page<T> {
  total: number;
  results: T[];
}
interface Named {
  id: number;
  name: string;
}
/** a make, model or variant of the stock, as the stock-derived lists give it */
type InStock = BrandsAnswer['results'][number];

/**
 * The demo stock and the vehicle catalog the API serves tell one story: what a seller's item names
 * is a make, model and variant the catalog lists, and looking a catalog model up in the stock
 * finds its items.
 */
describe('demo stock and the vehicle catalog', () => {
  let app: TestApp;
  let dataDir: string;
  let demo: DemoAccount;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pss-demo-vehicles-'));
    app = await startTestApp({ env: { DEMO_ITEMS: String(ITEMS), DATA_DIR: dataDir } });
    demo = (await prepareDemo(app.services))!;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async <T>(path: string) => {
    const response = await app.api.get<Page<T>>(path);
    expect(response.status, path).toBe(200);
    return response.body.results;
  };
  const catalogModels = async (make: string) => {
    const found = (await get<Named>(`/data/catalog/vehicle-makes?q=${encodeURIComponent(make)}`)).find(
      (m) => m.name === make,
    );
    expect(found, make).toBeDefined();
    return get<Named>(`/data/catalog/vehicle-models/${found!.id}?per_page=500`);
  };

  it('names in every stock item a make, model and variant of the catalog', async () => {
    const { rows } = await sql<{ vehicle: string }>`
      select distinct concat_ws(' | ', s.vehicle_make, s.vehicle_model, s.vehicle_variant) as vehicle
        from stock_items s
       where not exists (
         select 1 from vehicle_makes mk
           join vehicle_models md on md.make_id = mk.id
          where mk.name = s.vehicle_make and md.name = s.vehicle_model
            and (s.vehicle_variant is null or exists (
                  select 1 from vehicle_variants v where v.model_id = md.id and v.name = s.vehicle_variant)))
       order by 1`.execute(app.services.db);
    expect(rows.map((r) => r.vehicle)).toEqual([]);
  });

  it("lists as a make's models in stock only models of its catalog, each with its catalog variants", async () => {
    const brands = await get<InStock>('/data/catalog/brands?per_page=500');
    expect(brands.length).toBeGreaterThanOrEqual(15);
    for (const brand of brands) {
      const catalog = new Map((await catalogModels(brand.name)).map((m) => [m.name, m.id]));
      const inStock = await get<InStock>(
        `/data/catalog/models/${encodeURIComponent(brand.name)}?per_page=500`,
      );
      expect(
        inStock.filter((m) => !catalog.has(m.name)).map((m) => m.name),
        brand.name,
      ).toEqual([]);
      const model = inStock[0]!;
      const variants = new Set(
        (await get<Named>(`/data/catalog/vehicle-variants/${catalog.get(model.name)}?per_page=500`)).map(
          (v) => v.name,
        ),
      );
      const stockVariants = await get<InStock>(
        `/data/catalog/variants/${encodeURIComponent(model.name)}?per_page=500`,
      );
      expect(stockVariants.length, `${brand.name} ${model.name}`).toBeGreaterThan(0);
      expect(
        stockVariants.filter((v) => !variants.has(v.name)).map((v) => v.name),
        `${brand.name} ${model.name}`,
      ).toEqual([]);
    }
  });

  it('finds stock when searched by a catalog model, or by its line ("Golf" finds every Golf)', async () => {
    const search = async (body: Record<string, string>) => {
      const response = await app.api.withApiKey(demo.apiKey).post<SearchAnswer>('/data/search', body);
      expect(response.status).toBe(200);
      return response.body.total;
    };
    const golfs = (await catalogModels('Volkswagen')).filter((m) => /^Golf [IV]+$/.test(m.name));
    expect(golfs.map((m) => m.name)).toEqual(
      expect.arrayContaining(['Golf V', 'Golf VI', 'Golf VII', 'Golf VIII']),
    );
    let golfItems = 0;
    for (const golf of golfs) {
      const found = await search({ vehicle_make: 'Volkswagen', vehicle_model: golf.name });
      golfItems += found;
      if (golf.name !== 'Golf III') expect(found, golf.name).toBeGreaterThan(0);
    }
    expect(await search({ vehicle_make: 'Volkswagen', vehicle_model: 'Golf' })).toBeGreaterThanOrEqual(
      golfItems,
    );

    // and the catalog models sellers offer most, make by make, as the playground's pickers show them
    for (const make of ['Renault', 'BMW', 'Peugeot', 'Mercedes-Benz', 'Toyota']) {
      const catalog = new Set((await catalogModels(make)).map((m) => m.name));
      const inStock = await get<InStock>(`/data/catalog/models/${encodeURIComponent(make)}?per_page=500`);
      for (const model of inStock.slice(0, 2)) {
        expect(catalog.has(model.name), `${make} ${model.name}`).toBe(true);
        expect(await search({ vehicle_make: make, vehicle_model: model.name }), `${make} ${model.name}`).toBe(
          model.items,
        );
      }
    }
  });
});
