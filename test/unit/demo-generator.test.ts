import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildVehicleCatalog } from '../../src/catalog/vehicle-catalog.js';
import { CONDITIONS } from '../../src/db/schema.js';
import { DemoDataset, type StockItemRow } from '../../src/demo/generator.js';
import { PART_KINDS } from '../../src/demo/part-kinds.js';
import { normalizeReference } from '../../src/search/references.js';

/** SHA-256 over the first `n` rows of a stream. */
function hashOf(rows: Iterable<unknown>, n: number): string {
  const hash = createHash('sha256');
  let i = 0;
  for (const row of rows) {
    if (i++ >= n) break;
    hash.update(JSON.stringify(row));
  }
  return hash.digest('hex');
}

function tableHashes(dataset: DemoDataset, n = 500): Record<string, string> {
  return {
    vendors: hashOf(dataset.vendors(), n),
    xref_groups: hashOf(
      (function* () {
        for (const g of dataset.xrefGroups()) yield g.group;
      })(),
      n,
    ),
    xref_group_references: hashOf(
      (function* () {
        for (const g of dataset.xrefGroups()) yield* g.references;
      })(),
      n,
    ),
    stock_items: hashOf(
      (function* () {
        for (const i of dataset.items()) yield i.item;
      })(),
      n,
    ),
    stock_item_references: hashOf(
      (function* () {
        for (const i of dataset.items()) yield* i.references;
      })(),
      n,
    ),
  };
}

const options = { items: 4_000, vendors: 300, catalog: [] };

describe('demo data generator', () => {
  it('gives identical rows for the same seed, on every table', () => {
    const first = tableHashes(new DemoDataset({ seed: 7, ...options }));
    const again = tableHashes(new DemoDataset({ seed: 7, ...options }));
    expect(again).toEqual(first);
  });

  it('gives different rows for another seed, on every table', () => {
    const a = tableHashes(new DemoDataset({ seed: 7, ...options }));
    const b = tableHashes(new DemoDataset({ seed: 8, ...options }));
    for (const table of Object.keys(a)) expect(b[table], table).not.toBe(a[table]);
  });

  it('recomputes any item on its own, identical to the streamed one', () => {
    const dataset = new DemoDataset({ seed: 3, ...options });
    const streamed = [...dataset.items(1_000, 1_010)];
    expect(streamed.map((_, k) => dataset.item(1_000 + k))).toEqual(streamed);
  });

  it('appends after taken ids, keeping the same rows and their links', () => {
    const base = new DemoDataset({ seed: 5, ...options });
    const moved = new DemoDataset({
      seed: 5,
      ...options,
      after: { vendor: 1_000, group: 50_000, item: 900_000 },
    });
    const a = base.item(17);
    const b = moved.item(17);
    expect(b.item.id).toBe(a.item.id + 900_000);
    expect(b.item.vendor_id).toBe(a.item.vendor_id + 1_000);
    if (a.item.xref_group_id !== null) expect(b.item.xref_group_id).toBe(a.item.xref_group_id + 50_000);
    expect(b.item.reference).toBe(a.item.reference);
    expect(b.references.every((r) => r.item_id === b.item.id)).toBe(true);
  });

  it('has at least 300 vendors across at least 15 European countries', () => {
    const vendors = [...new DemoDataset({ seed: 1, ...options }).vendors()];
    expect(vendors).toHaveLength(300);
    expect(new Set(vendors.map((v) => v.country_code)).size).toBeGreaterThanOrEqual(15);
    expect(new Set(vendors.map((v) => v.name)).size).toBeGreaterThan(200);
    for (const v of vendors) expect(v.country_code).toMatch(/^[A-Z]{2}$/);
  });

  describe('stock items', () => {
    const dataset = new DemoDataset({ seed: 1, ...options });
    const all = [...dataset.items()];
    const items = all.map((i) => i.item);
    const vendorIds = new Set([...dataset.vendors()].map((v) => v.id));
    const groupIds = new Set([...dataset.xrefGroups()].map((g) => g.group.id));

    it('use every condition, both flags, and link to existing vendors and groups', () => {
      expect(new Set(items.map((i) => i.condition))).toEqual(new Set(CONDITIONS));
      for (const item of items) {
        expect(item.is_oem).toBe(!item.is_aftermarket);
        expect(vendorIds.has(item.vendor_id)).toBe(true);
        if (item.xref_group_id !== null) expect(groupIds.has(item.xref_group_id)).toBe(true);
      }
      const withGroup = items.filter((i) => i.xref_group_id !== null).length;
      expect(withGroup / items.length).toBeGreaterThan(0.3);
      const aftermarket = items.filter((i) => i.is_aftermarket).length;
      expect(aftermarket / items.length).toBeGreaterThan(0.1);
      expect(aftermarket / items.length).toBeLessThan(0.5);
    });

    it('name only makes, models and variants of the vehicle catalog, and of many of its models', () => {
      const catalog = buildVehicleCatalog();
      const makeIds = new Map(catalog.makes.map((m) => [m.name, m.id]));
      const models = new Map(catalog.models.map((m) => [`${m.make_id}|${m.name}`, m.id]));
      const variants = new Set(catalog.variants.map((v) => `${v.model_id}|${v.name}`));
      const unknown: string[] = [];
      for (const item of items) {
        const makeId = makeIds.get(item.vehicle_make);
        const modelId = models.get(`${makeId}|${item.vehicle_model}`);
        const known =
          modelId !== undefined &&
          (item.vehicle_variant === null || variants.has(`${modelId}|${item.vehicle_variant}`));
        if (!known)
          unknown.push(`${item.id}: ${item.vehicle_make} | ${item.vehicle_model} | ${item.vehicle_variant}`);
      }
      expect(unknown).toEqual([]);
      expect(new Set(items.map((i) => i.vehicle_make)).size).toBeGreaterThanOrEqual(15);
      expect(new Set(items.map((i) => `${i.vehicle_make} ${i.vehicle_model}`)).size).toBeGreaterThan(200);
      expect(items.filter((i) => i.vehicle_variant !== null).length / items.length).toBeGreaterThan(0.8);
      for (const item of items.filter((i) => i.vehicle_variant !== null))
        expect(item.title).toContain(`${item.vehicle_model} ${item.vehicle_variant}`);
    });

    it('write OEM references in the format of their make', () => {
      const formats: Record<string, RegExp> = {
        Volkswagen: /^[0-9][A-Z0-9]{2} [0-9]{3} [0-9]{3}( [A-Z]{1,2})?$/,
        Audi: /^[0-9][A-Z0-9]{2} [0-9]{3} [0-9]{3}( [A-Z]{1,2})?$/,
        BMW: /^[0-9]{2} [0-9]{2} [0-9] [0-9]{3} [0-9]{3}$/,
        'Mercedes-Benz': /^A [0-9]{3} [0-9]{3} [0-9]{2} [0-9]{2}( [0-9]{4})?$/,
        Peugeot: /^([0-9]{4} [A-Z][0-9]|98 [0-9]{3} [0-9]{3} 80)$/,
        Renault: /^(77 01|82 00) [0-9]{3} [0-9]{3}$|^[0-9]{4} [0-9]{3} [0-9]{2}R$/,
        Toyota: /^[0-9]{5}-[0-9]{5}$/,
      };
      const seen = new Set<string>();
      for (const item of items.filter((i) => i.is_oem)) {
        const format = formats[item.vehicle_make];
        if (!format) continue;
        seen.add(item.vehicle_make);
        expect(item.reference, `${item.vehicle_make} ${item.reference}`).toMatch(format);
      }
      expect(seen.size).toBe(Object.keys(formats).length);
    });

    it('list aftermarket equivalents by brand, and the OEM number on aftermarket items', () => {
      const brands = new Set(PART_KINDS.flatMap((k) => k.brands.map((b) => b.brand)));
      for (const { item, references } of all) {
        const norms = references.map((r) => normalizeReference(r.reference));
        expect(new Set(norms).size).toBe(norms.length);
        expect(norms).not.toContain(normalizeReference(item.reference));
        for (const ref of references.filter((r) => r.kind === 'aftermarket'))
          expect(brands.has(ref.brand)).toBe(true);
        if (item.is_aftermarket) {
          expect(references.some((r) => r.kind === 'oem' && r.brand === item.vehicle_make)).toBe(true);
          expect([...brands].some((brand) => item.title.includes(brand))).toBe(true);
        }
      }
      expect(all.filter((i) => i.references.length > 0).length).toBeGreaterThan(all.length / 3);
    });

    it('group an OEM number with one to four aftermarket equivalents', () => {
      for (const { references } of dataset.xrefGroups()) {
        expect(references.filter((r) => r.kind === 'oem').length).toBeGreaterThanOrEqual(1);
        const equivalents = references.filter((r) => r.kind === 'aftermarket').length;
        expect(equivalents).toBeGreaterThanOrEqual(1);
        expect(equivalents).toBeLessThanOrEqual(4);
      }
    });

    it('price parts by kind: brake pads in tens of euros, engines in thousands', () => {
      const newOem = (kind: string): StockItemRow[] => {
        const names = PART_KINDS.find((k) => k.key === kind)!.names;
        return items.filter(
          (i) =>
            i.is_oem &&
            Object.values(names).some((name) => i.title.startsWith(name + ' ')) &&
            i.condition !== 'para_pecas',
        );
      };
      const median = (rows: StockItemRow[]) => {
        const prices = rows.map((r) => Number(r.price)).sort((a, b) => a - b);
        return prices[Math.floor(prices.length / 2)]!;
      };
      const pads = newOem('brake_pads').filter((i) => i.condition === 'novo');
      const engines = newOem('engine');
      expect(pads.length).toBeGreaterThan(20);
      expect(engines.length).toBeGreaterThan(10);
      expect(median(pads)).toBeGreaterThan(15);
      expect(median(pads)).toBeLessThan(80);
      expect(median(engines)).toBeGreaterThan(400);
      expect(median(engines)).toBeLessThan(4_000);
      for (const item of items) expect(item.price).toMatch(/^[0-9]+\.[0-9]{2}$/);
    });

    it('write titles and descriptions mostly in Portuguese, some in other languages', () => {
      const portuguese = items.filter((i) => /Referência |Compatível com /.test(i.description)).length;
      expect(portuguese / items.length).toBeGreaterThan(0.5);
      for (const marker of ['Referencia ', 'Référence ', 'Teilenummer ', 'Codice ', 'Part number ']) {
        expect(
          items.some((i) => i.description.includes(marker)),
          marker,
        ).toBe(true);
      }
      for (const item of items) expect(item.title).toContain(`${item.vehicle_make} ${item.vehicle_model}`);
    });
  });
});
