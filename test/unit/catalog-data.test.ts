import { describe, expect, it } from 'vitest';
import { catalogLists } from '../../src/catalog/catalog-lists.js';
import { lineFuels, realMakes } from '../../src/catalog/data/real-vehicles.js';
import {
  FUEL_LETTERS,
  powerScale,
  VEHICLE_CLASSES,
  type FuelCode,
} from '../../src/catalog/data/vehicle-classes.js';
import { buildPartsCatalog } from '../../src/catalog/parts-catalog.js';
import { buildVehicleCatalog, type VariantRow } from '../../src/catalog/vehicle-catalog.js';
import { CATALOG_YEAR } from '../../src/catalog/vehicle-variants.js';

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

  it('keeps every real make with its real model lines (each generation a model), and consistent ids and technical data', () => {
    expect(vehicles.makes).toHaveLength(1119);
    expect(vehicles.models).toHaveLength(20524);
    expect(vehicles.variants.length).toBeGreaterThanOrEqual(105000);
    const makeByName = new Map(vehicles.makes.map((m) => [m.name, m.id]));
    for (const real of realMakes()) {
      const id = makeByName.get(real.name);
      expect(id, real.name).toBeDefined();
      const models = new Set(vehicles.models.filter((m) => m.make_id === id).map((m) => m.name));
      for (const line of real.lines) {
        for (const model of line.models)
          expect(models.has(model.name), `${real.name} ${model.name}`).toBe(true);
      }
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

  describe('variants whose technical data go together', () => {
    const modelById = new Map(vehicles.models.map((m) => [m.id, m]));
    const makeById = new Map(vehicles.makes.map((m) => [m.id, m]));
    const variantsByModel = new Map<number, VariantRow[]>();
    for (const v of vehicles.variants)
      variantsByModel.set(v.model_id, [...(variantsByModel.get(v.model_id) ?? []), v]);
    const variantsOf = (make: string, model: string) => {
      const makeId = vehicles.makes.find((m) => m.name === make)!.id;
      const found = vehicles.models.find((m) => m.make_id === makeId && m.name === model);
      expect(found, `${make} ${model}`).toBeDefined();
      return { model: found!, variants: variantsByModel.get(found!.id) ?? [] };
    };
    /** Every variant breaking `rule`, named, so a failure says which and why. */
    const breaking = (rule: (v: VariantRow) => boolean) =>
      vehicles.variants
        .filter((v) => !rule(v))
        .map((v) => {
          const model = modelById.get(v.model_id)!;
          return `${makeById.get(model.make_id)!.name} ${model.name} ${model.year_from}–${model.year_to ?? ''}: ${JSON.stringify(v)}`;
        });

    it("sells every variant within its model's years, and every model until no later than the catalog's year", () => {
      expect(
        breaking((v) => {
          const model = modelById.get(v.model_id)!;
          const last = model.year_to ?? CATALOG_YEAR;
          return (
            v.year_from >= model.year_from &&
            v.year_from <= last &&
            (v.year_to === null ? model.year_to === null : v.year_to >= v.year_from && v.year_to <= last)
          );
        }),
      ).toEqual([]);
      for (const model of vehicles.models) {
        if (model.year_from > CATALOG_YEAR || (model.year_to !== null && model.year_to < model.year_from))
          throw new Error(`model inconsistent: ${JSON.stringify(model)}`);
      }
    });

    it('sells a fuel only once it reached the market: no hybrid, plug-in or electric car of the 1990s', () => {
      expect(breaking((v) => v.fuel_code !== 'electric' || v.year_from >= 2010)).toEqual([]);
      expect(breaking((v) => v.fuel_code !== 'plugin_hybrid' || v.year_from >= 2011)).toEqual([]);
      expect(breaking((v) => v.fuel_code !== 'hybrid' || v.year_from >= 1997)).toEqual([]);
    });

    it('gives each engine the power its displacement and fuel allow', () => {
      // a full hybrid's system power: 50–340 kW (a 1.5 hybrid never gives 212 cv)
      expect(breaking((v) => v.fuel_code !== 'hybrid' || (v.power_kw >= 50 && v.power_kw <= 340))).toEqual(
        [],
      );
      expect(
        breaking((v) => v.fuel_code !== 'hybrid' || v.displacement_cc! >= 1800 || v.power_kw <= 110),
      ).toEqual([]);
      // an engine alone gives at most 150 kW a litre (a supercar's), at least 25; a motor has no litres
      expect(
        breaking((v) => {
          if (v.displacement_cc === null) return v.fuel_code === 'electric' || v.fuel_code === 'hydrogen';
          if (v.fuel_code === 'hybrid' || v.fuel_code === 'plugin_hybrid') return true;
          const perLitre = v.power_kw / (v.displacement_cc / 1000);
          return perLitre >= 25 && perLitre <= 150;
        }),
      ).toEqual([]);
      // a plug-in hybrid adds a motor to its engine: 100–740 kW in all
      expect(
        breaking((v) => v.fuel_code !== 'plugin_hybrid' || (v.power_kw >= 100 && v.power_kw <= 740)),
      ).toEqual([]);
      expect(breaking((v) => v.power_hp === Math.round(v.power_kw * 1.35962))).toEqual([]);
      // the name says what the data say: "2.0 TDI 150 cv" is a 2.0 of 150 cv
      expect(
        breaking((v) =>
          v.displacement_cc === null
            ? v.name.startsWith(`${v.fuel_code === 'electric' ? 'Elétrico' : 'Hidrogénio'} ${v.power_kw} kW`)
            : v.name.startsWith((v.displacement_cc / 1000).toFixed(1)) &&
              v.name.includes(` ${v.power_hp} cv`),
        ),
      ).toEqual([]);
    });

    it('keeps each real model to the bodies, fuels and power of its class', () => {
      const problems: string[] = [];
      for (const make of realMakes()) {
        for (const line of make.lines) {
          const vehicleClass = VEHICLE_CLASSES[line.vehicleClass];
          const fuels = new Set([...lineFuels(line, make.family)].map((letter) => FUEL_LETTERS[letter]));
          for (const { name } of line.models) {
            for (const v of variantsOf(make.name, name).variants) {
              const band = vehicleClass.power[v.fuel_code as FuelCode];
              const fits =
                vehicleClass.bodies.includes(v.body_type) &&
                fuels.has(v.fuel_code as FuelCode) &&
                band !== undefined &&
                v.power_kw >= Math.round(band[0] * powerScale(v.year_from)) &&
                v.power_kw <= band[1];
              if (!fits) problems.push(`${make.name} ${name} (${line.vehicleClass}): ${JSON.stringify(v)}`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('answers what an operator saw: a Golf is no SUV, a Golf Sportsvan is sold 2014–2020', () => {
      const golfs = vehicles.models.filter(
        (m) => makeById.get(m.make_id)!.name === 'Volkswagen' && /^Golf [IV]+$/.test(m.name),
      );
      expect(golfs.map((m) => m.name)).toEqual([
        'Golf III',
        'Golf IV',
        'Golf V',
        'Golf VI',
        'Golf VII',
        'Golf VIII',
      ]);
      for (const golf of golfs) {
        for (const v of variantsByModel.get(golf.id)!)
          expect(['hatchback', 'estate', 'sedan'], `${golf.name} ${v.name}`).toContain(v.body_type);
      }
      const sportsvan = variantsOf('Volkswagen', 'Golf Sportsvan');
      expect(sportsvan.model).toMatchObject({ year_from: 2014, year_to: 2020 });
      for (const v of sportsvan.variants) expect(v.body_type).toBe('mpv');
      const vii = variantsOf('Volkswagen', 'Golf VII').variants;
      expect(vii.every((v) => /^\d\.\d (TSI|TDI|eHybrid|GPL) \d+ cv$|^Elétrico \d+ kW$/.test(v.name))).toBe(
        true,
      );
    });
  });
});
