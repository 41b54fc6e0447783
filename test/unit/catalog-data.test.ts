import { describe, expect, it } from 'vitest';
import { catalogLists } from '../../src/catalog/catalog-lists.js';
import { realMakes } from '../../src/catalog/data/real-vehicles.js';
import { buildPartsCatalog } from '../../src/catalog/parts-catalog.js';
import { buildVehicleCatalog } from '../../src/catalog/vehicle-catalog.js';

const LANGS = ['pt', 'en', 'es', 'fr', 'de', 'it'] as const;

describe('generated catalog data', () => {
  const parts = buildPartsCatalog();
  const vehicles = buildVehicleCatalog();

  it('is the same on every run', () => {
    expect(buildPartsCatalog()).toEqual(parts);
    const again = buildVehicleCatalog();
    expect(again.makes).toEqual(vehicles.makes);
    expect(again.models).toEqual(vehicles.models);
    expect(again.variants.length).toBe(vehicles.variants.length);
    // Sampled rather than deep-equal on 100k rows, to keep the test fast.
    for (let i = 0; i < vehicles.variants.length; i += 997)
      expect(again.variants[i]).toEqual(vehicles.variants[i]);
    expect(again.engines.at(-1)).toEqual(vehicles.engines.at(-1));
  });

  it('gives every part a unique name in each language and codes known to the coded lists', () => {
    expect(parts).toHaveLength(1656);
    expect(new Set(parts.map((p) => p.id)).size).toBe(1656);
    for (const lang of LANGS) {
      const names = parts.map((p) => p.name[lang]);
      expect(new Set(names).size, lang).toBe(1656);
      // Real names, some as short as "Tür" or "Eje", never padded or with doubled spaces.
      expect(names.filter((n) => n.trim() !== n || n.length < 3 || /\s\s/.test(n))).toEqual([]);
    }
    const lists = catalogLists(parts);
    const codes = (kind: string) => new Set(lists.filter((l) => l.kind === kind).map((l) => l.code));
    const [groups, types, locations, sides] = ['groups', 'types', 'locations', 'sides'].map(codes);
    for (const p of parts) {
      expect(groups!.has(p.group), p.code).toBe(true);
      expect(types!.has(p.type), p.code).toBe(true);
      if (p.location) expect(locations!.has(p.location), p.code).toBe(true);
      if (p.side) expect(sides!.has(p.side), p.code).toBe(true);
    }
    // Positions really vary: some parts have a side, some a location, some neither.
    expect(parts.some((p) => p.side)).toBe(true);
    expect(parts.some((p) => p.location)).toBe(true);
    expect(parts.some((p) => !p.location && !p.side)).toBe(true);
  });

  it('keeps every real make with its real model lines, and consistent ids and technical data', () => {
    expect(vehicles.makes).toHaveLength(1119);
    expect(vehicles.models).toHaveLength(20524);
    expect(vehicles.variants.length).toBeGreaterThanOrEqual(105000);
    const makeByName = new Map(vehicles.makes.map((m) => [m.name, m.id]));
    for (const real of realMakes()) {
      const id = makeByName.get(real.name);
      expect(id, real.name).toBeDefined();
      const models = new Set(vehicles.models.filter((m) => m.make_id === id).map((m) => m.name));
      for (const model of real.models) expect(models.has(model), `${real.name} ${model}`).toBe(true);
    }
    const modelIds = new Set(vehicles.models.map((m) => m.id));
    const variantIds = new Set(vehicles.variants.map((v) => v.id));
    expect(variantIds.size).toBe(vehicles.variants.length);
    for (const v of vehicles.variants) {
      if (!modelIds.has(v.model_id) || (v.year_to !== null && v.year_to < v.year_from) || v.power_kw <= 0)
        throw new Error(`variant ${v.id} inconsistent: ${JSON.stringify(v)}`);
    }
    const enginesPerVariant = new Map<number, string[]>();
    for (const e of vehicles.engines) {
      expect(variantIds.has(e.variant_id)).toBe(true);
      enginesPerVariant.set(e.variant_id, [...(enginesPerVariant.get(e.variant_id) ?? []), e.code]);
    }
    expect(enginesPerVariant.size).toBe(vehicles.variants.length);
    for (let i = 0; i < vehicles.variants.length; i += 101) {
      const v = vehicles.variants[i]!;
      expect(enginesPerVariant.get(v.id)).toEqual(v.engine_codes);
    }
  });
});
