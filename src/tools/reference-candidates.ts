import { normalizeReference } from '../search/references.js';

export interface ReferenceCandidate {
  /** as written in the text */
  written: string;
  normalized: string;
  /** token positions [from, to) it spans, to drop candidates inside a longer match */
  from: number;
  to: number;
}

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9.\-/_]*$/;
const MAX_TOKENS = 5;
const MIN_LENGTH = 5;
const MAX_LENGTH = 24;

/** Words that announce a barcode number (EAN, GTIN, UPC): the digits after them are not a reference. */
const BARCODE_WORDS = new Set('EAN EAN8 EAN13 GTIN GTIN8 GTIN12 GTIN13 GTIN14 UPC UPCA'.split(' '));
/** A barcode word and its number read as one token ("EAN4006633123456"). */
const BARCODE_TOKEN = /^(EAN|GTIN|UPC)\d{8,16}$/;
/**
 * Words of a quantity on a label or in a description ("QTY 1", "Qtd: 2", "Menge 2", "2 PCS",
 * "4 Stk."): they and the count beside them are not a reference.
 */
const QUANTITY_WORDS = new Set(
  [
    'QTY QUANTITY PCS PIECES',
    'QTD QTDE QUANT QUANTIDADE UNID UNIDADES PEÇAS',
    'CANT CANTIDAD UDS',
    'QTE QTÉ QUANTITE QUANTITÉ PIÈCES',
    'MENGE STK STÜCK STUECK',
    'QTA QTÀ QUANTITA QUANTITÀ PZ PEZZI',
  ]
    .join(' ')
    .split(' '),
);
const COUNT = /^\d{1,4}$/;
const DIGITS = /^\d+$/;

/** True when the digits are a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) whose check digit holds. */
function isGtin(digits: string): boolean {
  if (![8, 12, 13, 14].includes(digits.length) || !DIGITS.test(digits)) return false;
  let sum = 0;
  // weights 3, 1, 3… from the digit before the check digit leftwards
  for (let i = digits.length - 2, weight = 3; i >= 0; i--, weight = 4 - weight)
    sum += Number(digits[i]) * weight;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

const wordOf = (token: string) => token.toUpperCase().replace(/[-.#]/g, '');

/**
 * The tokens no reference may take in: barcode words and their number (8–14 digits, in one
 * token or a few groups), a number of 12–14 digits with a valid GTIN check digit wherever it
 * is (a barcode's number printed alone), and quantity words with the count beside them.
 */
function notReferences(tokens: string[]): boolean[] {
  const blocked = tokens.map(() => false);
  tokens.forEach((token, i) => {
    const word = wordOf(token);
    if (BARCODE_TOKEN.test(word) || (DIGITS.test(token) && token.length >= 12 && isGtin(token))) {
      blocked[i] = true;
    } else if (BARCODE_WORDS.has(word)) {
      blocked[i] = true;
      // the number, perhaps printed in groups ("4 006633 123456")
      let digits = 0;
      for (let j = i + 1; j < tokens.length && DIGITS.test(tokens[j]!); j++) {
        digits += tokens[j]!.length;
        if (digits > 14) break;
        blocked[j] = true;
      }
    } else if (QUANTITY_WORDS.has(word)) {
      blocked[i] = true;
      if (COUNT.test(tokens[i + 1] ?? '')) blocked[i + 1] = true;
      else if (COUNT.test(tokens[i - 1] ?? '')) blocked[i - 1] = true;
    }
  });
  return blocked;
}

/**
 * Spans of the text that could be part references: 1–5 consecutive reference-like tokens ("1K0
 * 615 301 AA", "W712/95", "0 986 494 104") whose normalized form has a digit and 5–24
 * characters. Plain numbers of up to four digits alone (years, "2015") are not references, nor
 * are barcode numbers (EAN/GTIN/UPC) and quantities ("QTY 1"), which a span never takes in.
 */
export function referenceCandidates(text: string, limit = 40): ReferenceCandidate[] {
  const tokens = text.split(/[\s,;:()"'!?]+/).map((t) => t.replace(/[.\-/_]+$/, ''));
  const blocked = notReferences(tokens);
  const out: ReferenceCandidate[] = [];
  const seen = new Set<string>();
  for (let from = 0; from < tokens.length; from++) {
    for (let to = from + 1; to <= Math.min(tokens.length, from + MAX_TOKENS); to++) {
      const span = tokens.slice(from, to);
      if (blocked[to - 1] || !span.every((t) => TOKEN.test(t))) break;
      const normalized = normalizeReference(span.join(' '));
      if (normalized.length > MAX_LENGTH) break;
      if (normalized.length < MIN_LENGTH || !/\d/.test(normalized) || seen.has(normalized)) continue;
      seen.add(normalized);
      out.push({ written: span.join(' '), normalized, from, to });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** Keeps the matches not contained in a longer one (the longest reading of the text wins). */
export function outermost<T extends { from: number; to: number }>(found: T[]): T[] {
  return found.filter(
    (a) => !found.some((b) => b !== a && b.from <= a.from && b.to >= a.to && b.to - b.from > a.to - a.from),
  );
}
