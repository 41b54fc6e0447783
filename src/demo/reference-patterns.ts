import type { Random } from '../seeded-random.js';

/**
 * Reference numbers are written as patterns: `#` a digit, `@` an upper-case letter, `*` a digit
 * or letter; anything else is literal. `1K0 615 301 AA` is, for instance, `#@# ### ### @@`.
 */
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXZ'; // no I, O, Q, Y: part numbers avoid them
const ALNUM = '0123456789' + LETTERS;

export function fillPattern(pattern: string, random: Random): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '#') out += String(random.int(0, 9));
    else if (ch === '@') out += LETTERS[random.int(0, LETTERS.length - 1)];
    else if (ch === '*') out += ALNUM[random.int(0, ALNUM.length - 1)];
    else out += ch;
  }
  return out;
}

/** How each manufacturer writes its own (OEM) part numbers. */
export type OemFormat =
  | 'vag'
  | 'bmw'
  | 'mercedes'
  | 'psa'
  | 'renault'
  | 'ford'
  | 'toyota'
  | 'opel'
  | 'fiat'
  | 'nissan'
  | 'honda'
  | 'hyundai';

export interface OemContext {
  /** VAG platform prefixes of the model (`5Q0`, `1K0`, …) */
  platforms: readonly string[];
  /** VAG main group of the part kind (`615` brakes, `941` lighting, …) */
  vagGroup: number;
}

/** An OEM reference in the manufacturer's own format. */
export function oemReference(format: OemFormat, context: OemContext, random: Random): string {
  switch (format) {
    case 'vag': {
      // 1K0 615 301 AA: platform, main group + sub group, part number, optional index letters
      const platform = random.pick(context.platforms);
      const index = random.chance(0.6) ? ' ' + fillPattern(random.chance(0.5) ? '@' : '@@', random) : '';
      return `${platform} ${context.vagGroup} ${fillPattern('###', random)}${index}`;
    }
    case 'bmw':
      // 34 11 6 792 219: main group (11 engine … 64 heating), sub group, part number
      return `${random.int(11, 64)} ${fillPattern('## # ### ###', random)}`;
    case 'mercedes':
      return fillPattern(random.pick(['A ### ### ## ##', 'A ### ### ## ##', 'A ### ### ## ## ####']), random);
    case 'psa':
      return random.chance(0.7) ? fillPattern('#### @#', random) : fillPattern('98 ### ### 80', random);
    case 'renault':
      return fillPattern(random.pick(['77 01 ### ###', '82 00 ### ###', '#### ### ##R']), random);
    case 'ford':
      return random.chance(0.75) ? fillPattern('# ### ###', random) : fillPattern('@@#@-#@###-@@', random);
    case 'toyota':
      return fillPattern('#####-#####', random);
    case 'opel':
      return fillPattern(random.pick(['13 ### ###', '55 ### ###', '93 ### ###']), random);
    case 'fiat':
      return fillPattern(random.pick(['518#####', '468#####', '552#####']), random);
    case 'nissan':
      return fillPattern('#####-@@#@@', random);
    case 'honda':
      return fillPattern('#####-@@@-@##', random);
    case 'hyundai':
      return fillPattern('#####-@@###', random);
  }
}
