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

/**
 * Spans of the text that could be part references: 1–5 consecutive reference-like tokens ("1K0
 * 615 301 AA", "W712/95", "0 986 494 104") whose normalized form has a digit and 5–24
 * characters. Plain numbers of up to four digits alone (years, "2015") are not references.
 */
export function referenceCandidates(text: string, limit = 40): ReferenceCandidate[] {
  const tokens = text.split(/[\s,;:()"'!?]+/).map((t) => t.replace(/[.\-/_]+$/, ''));
  const out: ReferenceCandidate[] = [];
  const seen = new Set<string>();
  for (let from = 0; from < tokens.length; from++) {
    for (let to = from + 1; to <= Math.min(tokens.length, from + MAX_TOKENS); to++) {
      const span = tokens.slice(from, to);
      if (!span.every((t) => TOKEN.test(t))) break;
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
