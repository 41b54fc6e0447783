import { POSITIONED_PARTS, UNPOSITIONED_PARTS } from './data/base-parts.js';
import { LANGUAGES, type Labels, type Lang } from './data/languages.js';
import { PART_GROUPS, PART_TYPES } from './data/part-classes.js';
import {
  DIMENSION_VALUES,
  locationCode,
  positionedName,
  type Agreement,
  type Dimension,
  type Position,
} from './data/part-positions.js';

/** The spec: "The catalog of parts holds about 1,656 parts in 6 languages." Exactly that many. */
export const PART_COUNT = 1_656;

export interface CatalogPart {
  id: number;
  code: string;
  group: string;
  type: string;
  location: string | null;
  side: string | null;
  name: Labels;
}

const DIMENSION_LETTERS: Record<string, Dimension> = { a: 'axle', v: 'vertical', d: 'depth', s: 'side' };
const ROMANCE: Lang[] = ['pt', 'es', 'fr', 'it'];
const groups = new Set(PART_GROUPS.map((g) => g.code));
const types = new Set(PART_TYPES.map((t) => t.code));

function checkClass(code: string, group: string, type: string) {
  if (!groups.has(group) || !types.has(type))
    throw new Error(`peça ${code}: grupo ${group} ou tipo ${type} desconhecido`);
}

/** Every position of a part: each dimension absent or one of its values (front/rear, ...). */
function positions(dims: Dimension[]): Position[] {
  let out: Position[] = [{}];
  for (const dim of dims) {
    out = out.flatMap((p) => [p, ...DIMENSION_VALUES[dim].map((value) => ({ ...p, [dim]: value }))]);
  }
  return out;
}

function positionedParts(): Omit<CatalogPart, 'id'>[] {
  return POSITIONED_PARTS.trim()
    .split('\n')
    .map((line) => {
      const [code, group, type, dims, agreement, ...names] = line.split('|');
      if (!code || !group || !type || !dims || agreement?.length !== 4 || names.length !== 6)
        throw new Error(`linha de peça inválida: ${line}`);
      checkClass(code, group, type);
      return { code, group, type, dims: [...dims].map((l) => DIMENSION_LETTERS[l]!), agreement, names };
    })
    .flatMap((base) =>
      positions(base.dims).map((position) => {
        const name = Object.fromEntries(
          LANGUAGES.map((lang, i) => {
            const romance = ROMANCE.indexOf(lang);
            const agreement = (romance >= 0 ? base.agreement[romance] : 'm') as Agreement;
            return [lang, positionedName(lang, base.names[i]!, agreement, position)];
          }),
        ) as Labels;
        const suffix = Object.values(position).join('_');
        return {
          code: suffix ? `${base.code}_${suffix}` : base.code,
          group: base.group,
          type: base.type,
          location: locationCode(position),
          side: position.side ?? null,
          name,
        };
      }),
    );
}

function unpositionedParts(): Omit<CatalogPart, 'id'>[] {
  return UNPOSITIONED_PARTS.trim()
    .split('\n')
    .map((line) => {
      const [code, group, type, ...names] = line.split('|');
      if (!code || !group || !type || names.length !== 6) throw new Error(`linha de peça inválida: ${line}`);
      checkClass(code, group, type);
      const name = Object.fromEntries(LANGUAGES.map((lang, i) => [lang, names[i]!])) as Labels;
      return { code, group, type, location: null, side: null, name };
    });
}

/**
 * The parts catalog: every position of the positioned parts, then the unpositioned ones, cut at
 * exactly PART_COUNT. Ids are 1..PART_COUNT in that order, the same on every run.
 */
export function buildPartsCatalog(): CatalogPart[] {
  const all = [...positionedParts(), ...unpositionedParts()];
  if (all.length < PART_COUNT)
    throw new Error(`só ${all.length} peças definidas; são precisas ${PART_COUNT}`);
  return all.slice(0, PART_COUNT).map((part, i) => ({ id: i + 1, ...part }));
}

/** How many parts the base lists define (for the test that guards the exact count). */
export function definedPartCount(): { positioned: number; unpositioned: number } {
  return { positioned: positionedParts().length, unpositioned: unpositionedParts().length };
}
