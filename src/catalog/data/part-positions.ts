import type { Lang } from './languages.js';

/**
 * Where a part sits on the vehicle, and how each language says it. Romance languages put
 * the position after the noun and make it agree with the noun's gender and number, German
 * appends adverbs ("Bremsscheibe vorne links"), English prefixes adjectives ("Front left
 * brake disc").
 */

/** Gender/number of a noun in pt, es, fr, it: m, f, M (masculine plural), F (feminine plural). */
export type Agreement = 'm' | 'f' | 'M' | 'F';
const FORM_INDEX: Record<Agreement, number> = { m: 0, f: 1, M: 2, F: 3 };

export type PositionValue = 'front' | 'rear' | 'upper' | 'lower' | 'inner' | 'outer' | 'left' | 'right';

type Forms = readonly [string, string, string, string];
interface PositionWords {
  en: string;
  de: string;
  pt: Forms;
  es: Forms;
  fr: Forms;
  it: Forms;
}

function forms(m: string, f: string, mp: string, fp: string): Forms {
  return [m, f, mp, fp];
}
const same = (word: string, plural: string): Forms => [word, word, plural, plural];

const WORDS: Record<PositionValue, PositionWords> = {
  front: {
    en: 'front',
    de: 'vorne',
    pt: forms('dianteiro', 'dianteira', 'dianteiros', 'dianteiras'),
    es: forms('delantero', 'delantera', 'delanteros', 'delanteras'),
    fr: same('avant', 'avant'),
    it: same('anteriore', 'anteriori'),
  },
  rear: {
    en: 'rear',
    de: 'hinten',
    pt: forms('traseiro', 'traseira', 'traseiros', 'traseiras'),
    es: forms('trasero', 'trasera', 'traseros', 'traseras'),
    fr: same('arrière', 'arrière'),
    it: same('posteriore', 'posteriori'),
  },
  upper: {
    en: 'upper',
    de: 'oben',
    pt: same('superior', 'superiores'),
    es: same('superior', 'superiores'),
    fr: forms('supérieur', 'supérieure', 'supérieurs', 'supérieures'),
    it: same('superiore', 'superiori'),
  },
  lower: {
    en: 'lower',
    de: 'unten',
    pt: same('inferior', 'inferiores'),
    es: same('inferior', 'inferiores'),
    fr: forms('inférieur', 'inférieure', 'inférieurs', 'inférieures'),
    it: same('inferiore', 'inferiori'),
  },
  inner: {
    en: 'inner',
    de: 'innen',
    pt: same('interior', 'interiores'),
    es: same('interior', 'interiores'),
    fr: forms('intérieur', 'intérieure', 'intérieurs', 'intérieures'),
    it: forms('interno', 'interna', 'interni', 'interne'),
  },
  outer: {
    en: 'outer',
    de: 'außen',
    pt: same('exterior', 'exteriores'),
    es: same('exterior', 'exteriores'),
    fr: forms('extérieur', 'extérieure', 'extérieurs', 'extérieures'),
    it: forms('esterno', 'esterna', 'esterni', 'esterne'),
  },
  left: {
    en: 'left',
    de: 'links',
    pt: forms('esquerdo', 'esquerda', 'esquerdos', 'esquerdas'),
    es: forms('izquierdo', 'izquierda', 'izquierdos', 'izquierdas'),
    fr: same('gauche', 'gauches'),
    it: forms('sinistro', 'sinistra', 'sinistri', 'sinistre'),
  },
  right: {
    en: 'right',
    de: 'rechts',
    pt: forms('direito', 'direita', 'direitos', 'direitas'),
    es: forms('derecho', 'derecha', 'derechos', 'derechas'),
    fr: forms('droit', 'droite', 'droits', 'droites'),
    it: forms('destro', 'destra', 'destri', 'destre'),
  },
};

export type Dimension = 'axle' | 'vertical' | 'depth' | 'side';
export const DIMENSION_VALUES: Record<Dimension, readonly PositionValue[]> = {
  axle: ['front', 'rear'],
  vertical: ['upper', 'lower'],
  depth: ['inner', 'outer'],
  side: ['left', 'right'],
};

/** English order reads "front left upper"; the Romance languages and German use axle, vertical, depth, side. */
const EN_ORDER: Dimension[] = ['axle', 'side', 'vertical', 'depth'];

export type Position = Partial<Record<Dimension, PositionValue>>;

/** First letter upper-case unless the word is an acronym or starts with a digit. */
function lowerFirst(text: string): string {
  const second = text.charAt(1);
  return second && second === second.toLowerCase() && /\p{L}/u.test(second)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
}
function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The part name in one language with its position spelled out. */
export function positionedName(lang: Lang, base: string, agreement: Agreement, position: Position): string {
  const dims = (['axle', 'vertical', 'depth', 'side'] as const).filter((d) => position[d]);
  if (!dims.length) return base;
  if (lang === 'en') {
    const words = EN_ORDER.filter((d) => position[d]).map((d) => WORDS[position[d] as PositionValue].en);
    return upperFirst(`${words.join(' ')} ${lowerFirst(base)}`);
  }
  if (lang === 'de') return `${base} ${dims.map((d) => WORDS[position[d] as PositionValue].de).join(' ')}`;
  const index = FORM_INDEX[agreement];
  return `${base} ${dims.map((d) => WORDS[position[d] as PositionValue][lang][index]).join(' ')}`;
}

/** Location code from the non-side dimensions: 'front', 'front_upper', 'inner', ... or null. */
export function locationCode(position: Position): string | null {
  const parts = (['axle', 'vertical', 'depth'] as const).map((d) => position[d]).filter(Boolean);
  return parts.length ? parts.join('_') : null;
}

export const SIDE_LABELS = {
  left: {
    pt: 'Lado esquerdo',
    en: 'Left',
    es: 'Lado izquierdo',
    fr: 'Côté gauche',
    de: 'Links',
    it: 'Lato sinistro',
  },
  right: {
    pt: 'Lado direito',
    en: 'Right',
    es: 'Lado derecho',
    fr: 'Côté droit',
    de: 'Rechts',
    it: 'Lato destro',
  },
} as const;

/** Label of a location code, in the feminine where it agrees ("posição dianteira superior"). */
export function locationLabel(lang: Lang, code: string): string {
  const values = code.split('_') as PositionValue[];
  if (lang === 'en') return upperFirst(values.map((v) => WORDS[v].en).join(' '));
  if (lang === 'de') return upperFirst(values.map((v) => WORDS[v].de).join(' '));
  return upperFirst(values.map((v) => WORDS[v][lang][1]).join(' '));
}
