import type { Lang } from '../../languages.js';

/** The six languages (src/languages.ts), in the order every label tuple in this folder uses. */
export { LANGUAGES, type Lang } from '../../languages.js';

export type Labels = Record<Lang, string>;

/** [pt, en, es, fr, de, it] -> {pt, en, ...}; the tuple form keeps the data tables short. */
export function labels(tuple: readonly [string, string, string, string, string, string]): Labels {
  return { pt: tuple[0], en: tuple[1], es: tuple[2], fr: tuple[3], de: tuple[4], it: tuple[5] };
}

/** A coded list entry (group, type, condition, fuel, ...) with its label in each language. */
export interface CodedLabel {
  code: string;
  name: Labels;
}

/** Parses 'code|pt|en|es|fr|de|it' lines. */
export function codedLabels(table: string): CodedLabel[] {
  return table
    .trim()
    .split('\n')
    .map((line) => {
      const [code, pt, en, es, fr, de, it, ...rest] = line.trim().split('|');
      if (!code || !pt || !en || !es || !fr || !de || !it || rest.length)
        throw new Error(`bad label line: ${line}`);
      return { code, name: { pt, en, es, fr, de, it } };
    });
}
