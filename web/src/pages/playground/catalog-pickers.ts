import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api';
import type {
  BrandsAnswer,
  ConditionsAnswer,
  CountriesAnswer,
  ModelsAnswer,
  PartsAnswer,
} from '../../api-types';
import { useI18n } from '../../i18n';

/** A part of the catalog, offered as the person types. */
export type Part = PartsAnswer['results'][number];

/** Codes of the API by their names in the page's language, as the pickers list them. */
export interface CodeNames {
  condition: (code: string) => string;
  country: (code: string) => string;
}

/** What the search form's pickers offer, from the public catalogs. */
export interface CatalogPickers {
  /** makes with stock (what the search filters on) */
  makes: BrandsAnswer['results'];
  /** the picked make's models with stock; none until a make is picked */
  models: ModelsAnswer['results'];
  /** the parts whose name matches what was typed in the part field */
  parts: Part[];
  conditions: ConditionsAnswer['results'];
  countries: CountriesAnswer['results'];
  names: CodeNames;
}

/**
 * A public catalog list into a picker's state; a failed one leaves the picker empty. Returns what
 * drops its answer: an effect returns it, so the models of a make picked before, or the parts for
 * what was typed before, never arrive after the current ones.
 */
function loadList<A extends { results: unknown[] }>(
  path: string,
  query: Record<string, string | number>,
  set: (items: A['results']) => void,
): () => void {
  let current = true;
  api<A>('GET', path, { credential: { kind: 'none' }, query }).then(
    ({ data }) => current && set(data.results),
    () => undefined,
  );
  return () => {
    current = false;
  };
}

/**
 * The catalog lists behind the search form's pickers: makes, conditions and countries (again when
 * the page's language changes), the models of the `make` picked, and the parts named like
 * `partTyped` (once two letters are typed, after a pause in the typing).
 */
export function useCatalogPickers(make: string, partTyped: string): CatalogPickers {
  const { lang } = useI18n();
  const [makes, setMakes] = useState<BrandsAnswer['results']>([]);
  const [models, setModels] = useState<ModelsAnswer['results']>([]);
  const [parts, setParts] = useState<Part[]>([]);
  const [conditions, setConditions] = useState<ConditionsAnswer['results']>([]);
  const [countries, setCountries] = useState<CountriesAnswer['results']>([]);

  useEffect(() => {
    const drops = [
      loadList<BrandsAnswer>('/data/catalog/brands', { per_page: 500 }, setMakes),
      loadList<ConditionsAnswer>('/data/catalog/conditions', { lang }, setConditions),
      loadList<CountriesAnswer>('/data/catalog/countries', { lang, per_page: 500 }, setCountries),
    ];
    return () => drops.forEach((drop) => drop());
  }, [lang]);

  useEffect(() => {
    setModels([]);
    if (!make) return;
    return loadList<ModelsAnswer>(
      `/data/catalog/models/${encodeURIComponent(make)}`,
      { per_page: 500 },
      setModels,
    );
  }, [make]);

  // The type-ahead: the catalog's names in the page's language, as the person types.
  useEffect(() => {
    if (partTyped.trim().length < 2) return;
    let drop = () => {};
    const timer = setTimeout(() => {
      drop = loadList<PartsAnswer>('/data/catalog/parts', { q: partTyped, lang, per_page: 10 }, setParts);
    }, 200);
    return () => {
      clearTimeout(timer);
      drop();
    };
  }, [partTyped, lang]);

  const names: CodeNames = {
    condition: (code) => conditions.find((c) => c.code === code)?.name ?? code,
    country: (code) => countries.find((c) => c.code === code)?.name ?? code,
  };
  return { makes, models, parts, conditions, countries, names };
}
