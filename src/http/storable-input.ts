import { badRequest } from './errors.js';

/** An unpaired UTF-16 surrogate: JSON text can carry one ("\ud800"), UTF-8 cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(value: unknown, path: string): { path: string; kind: 'text' | 'number' } | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') || LONE_SURROGATE.test(value) ? { path, kind: 'text' } : null;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path, kind: 'number' };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = problemOf(value[i], `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const found = problemOf(key, `${path}.${key}`) ?? problemOf(inner, `${path}.${key}`);
      if (found) return found;
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
  if (problem.kind === 'number') {
    throw badRequest(`O campo ${problem.path} deve ser um número finito.`, 'VALIDATION_ERROR');
  }
  throw badRequest(
    `O campo ${problem.path} contém caracteres inválidos (o carácter NUL ou texto UTF-16 mal formado).`,
    'INVALID_CHARACTERS',
  );
}
