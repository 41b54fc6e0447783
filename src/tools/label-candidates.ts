import { normalizeReference } from '../search/references.js';
import { outermost, referenceCandidates } from './reference-candidates.js';
import type { ReadLine } from './text-reader.js';

export type Source = 'imagem' | 'descricao';

/** A reference to look up: where it was found and how sure we are it was read right (0–1). */
export interface Candidate {
  written: string;
  normalized: string;
  sources: Source[];
  confidence: number;
  /** found by correcting a likely misreading (O for 0, …) of another candidate */
  corrected: boolean;
}

/** Candidates per line of the image, at most (a line of part numbers is rare; noise is common). */
const PER_LINE = 8;
/** A typed reference is what the buyer means, though perhaps mistyped. */
const DESCRIPTION_CONFIDENCE = 0.95;
/** A correction is a guess: it ranks below what was read as it was. */
const CORRECTION_FACTOR = 0.85;

/**
 * The references of the image's lines: the longest reference-like spans of each line (as the
 * description's, reference-candidates.ts), confidence the least of the words it spans.
 */
export function imageCandidates(lines: ReadLine[]): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    // a zero in a heavy font is often read as a copyright sign
    const text = line.text.replace(/©/g, '0');
    const words = text.split(/\s+/);
    const found = outermost(referenceCandidates(text, PER_LINE * 4)).slice(0, PER_LINE);
    for (const c of found) {
      // the word confidences line up with the tokens when the line splits the same way
      const spanned = words.length === line.words.length ? line.words.slice(c.from, c.to) : [];
      const confidence = spanned.length ? Math.min(...spanned.map((w) => w.confidence)) : line.confidence;
      out.push({
        written: c.written,
        normalized: c.normalized,
        sources: ['imagem'],
        confidence: round(Math.max(0, Math.min(100, confidence)) / 100),
        corrected: false,
      });
    }
  }
  return out;
}

/** Words of letters only a span takes in ("Brembo 09" takes one): the fewer, the likelier a reference. */
const wordsIn = (written: string) => written.split(' ').filter((t) => !/\d/.test(t)).length;

/**
 * The description's references: of its reference-like spans, those taking the fewest words of
 * letters only first (a description mixes words and numbers: "Disco Brembo 09 9145 11"), then in
 * the order it gives them.
 */
export function descriptionCandidates(description: string, limit: number): Candidate[] {
  return referenceCandidates(description)
    .map((c, i) => ({ c, i, words: wordsIn(c.written) }))
    .sort((a, b) => a.words - b.words || a.i - b.i)
    .slice(0, limit)
    .map(({ c }) => ({
      written: c.written,
      normalized: c.normalized,
      sources: ['descricao'],
      confidence: DESCRIPTION_CONFIDENCE,
      corrected: false,
    }));
}

/** One entry per normalized reference: sources joined, the best confidence kept, first place kept. */
export function mergeCandidates(...lists: Candidate[][]): Candidate[] {
  const byReference = new Map<string, Candidate>();
  for (const c of lists.flat()) {
    const seen = byReference.get(c.normalized);
    if (!seen) {
      byReference.set(c.normalized, { ...c, sources: [...c.sources] });
      continue;
    }
    for (const s of c.sources) if (!seen.sources.includes(s)) seen.sources.push(s);
    seen.sources.sort((a, b) => (a === 'imagem' ? -1 : b === 'imagem' ? 1 : 0));
    if (c.confidence > seen.confidence) seen.confidence = c.confidence;
  }
  return [...byReference.values()];
}

/**
 * Characters the recogniser mistakes for each other on labels (letter and digit shapes). Part
 * numbers mix both, so neither a dictionary nor "digits only" settles which was printed.
 */
const LOOK_ALIKE: Record<string, string[]> = {
  O: ['0'],
  o: ['0'],
  '0': ['O'],
  D: ['0'],
  Q: ['0'],
  I: ['1'],
  i: ['1'],
  l: ['1'],
  L: ['1'],
  '1': ['I', '7'],
  '7': ['1'],
  '4': ['1'],
  S: ['5'],
  s: ['5'],
  '5': ['S', '6'],
  B: ['8'],
  '8': ['B', '3'],
  '3': ['8'],
  Z: ['2'],
  z: ['2'],
  '2': ['Z'],
  G: ['6'],
  g: ['9'],
  q: ['9'],
  '6': ['G', '5'],
};

/**
 * References one misreading away from a candidate read in the image, to look up when the reading
 * itself is not in stock: one look-alike character swapped (O↔0, I↔1, S↔5, B↔8, …), or a stray
 * character read at either end (a border or a speck). The written form keeps the reading's spacing.
 */
export function lookAlikes(candidate: Candidate, limit: number): Candidate[] {
  const chars = [...candidate.written];
  const writings: string[] = [];
  if (candidate.normalized.length > 6) writings.push(chars.slice(1).join(''), chars.slice(0, -1).join(''));
  chars.forEach((char, i) => {
    for (const other of LOOK_ALIKE[char] ?? []) {
      writings.push([...chars.slice(0, i), other, ...chars.slice(i + 1)].join(''));
    }
  });
  const out: Candidate[] = [];
  for (const written of writings) {
    const normalized = normalizeReference(written.trim());
    if (normalized.length < 5 || !/\d/.test(normalized)) continue;
    if (normalized === candidate.normalized || out.some((c) => c.normalized === normalized)) continue;
    out.push({
      written: written.trim(),
      normalized,
      sources: candidate.sources,
      confidence: round(candidate.confidence * CORRECTION_FACTOR),
      corrected: true,
    });
    if (out.length >= limit) break;
  }
  return out;
}

const round = (n: number) => Math.round(n * 100) / 100;
