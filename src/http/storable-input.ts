import { invalid } from '../errors.js';
import type { FieldProblemReason } from './validation.js';

/** An unpaired UTF-16 surrogate: JSON text can carry one ("\ud800"), UTF-8 cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper than this, no request of this API is legitimate (its deepest bodies have three levels). */
const MAX_DEPTH = 32;

type Problem = { path: string; kind: 'text' | 'number' | 'depth' };

/**
 * The first value PostgreSQL could not take, depth first. Iterative and bounded: a body nested
 * twenty thousand levels deep is valid JSON under 1 MB and must not exhaust the call stack.
 */
function problemOf(root: unknown, rootPath: string): Problem | null {
  const pending: [unknown, string, number][] = [[root, rootPath, 0]];
  while (pending.length) {
    const [value, path, depth] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000') || LONE_SURROGATE.test(value)) return { path, kind: 'text' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, kind: 'number' };
    } else if (value !== null && typeof value === 'object') {
      if (depth === MAX_DEPTH) return { path, kind: 'depth' };
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value);
      for (const [key, inner] of entries.reverse()) {
        pending.push([inner, `${path}.${key}`, depth + 1], [key, `${path}.${key}`, depth + 1]);
      }
    }
  }
  return null;
}

/**
 * Rejects what JSON and URLs can carry but PostgreSQL can neither store nor compare: the NUL
 * character (text and jsonb refuse it), unpaired UTF-16 surrogates (not UTF-8 at all) and the
 * infinities a JSON number such as 1e400 parses to. Every request's path parameters, query and body
 * pass here before any handler, so such input is the caller's 400 wherever it would have landed,
 * never a 500 from the database. `where` names the part of the request in the message.
 */
export function assertStorable(where: string, value: unknown): void {
  const problem = problemOf(value, where);
  if (!problem) return;
  const campo = problem.path;
  const refuse = (
    mensagem: string,
    motivo: FieldProblemReason,
    code: 'VALIDATION_ERROR' | 'INVALID_CHARACTERS',
  ) => invalid(mensagem, code, { campos: [{ campo, motivo, mensagem }] });
  if (problem.kind === 'depth') {
    throw refuse(
      `O campo ${campo} está aninhado a mais de ${MAX_DEPTH} níveis.`,
      'too_deep',
      'VALIDATION_ERROR',
    );
  }
  if (problem.kind === 'number') {
    throw refuse(`O campo ${campo} deve ser um número finito.`, 'not_finite', 'VALIDATION_ERROR');
  }
  throw refuse(
    `O campo ${campo} contém caracteres inválidos (o carácter NUL ou texto UTF-16 mal formado).`,
    'invalid_characters',
    'INVALID_CHARACTERS',
  );
}
