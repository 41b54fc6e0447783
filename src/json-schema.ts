import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import localizePtModule from 'ajv-i18n/localize/pt-BR/index.js';
import { Type, type TSchema } from '@sinclair/typebox';

/** A JSON schema: a TypeBox schema (the declarations' form) or a plain object. */
export type JsonSchema = TSchema | Record<string, unknown>;

/**
 * A property with a default, which the checks below fill in: not required of the caller (it stays
 * out of the object's `required`), always present once checked (so its type is not optional).
 */
export function Defaulted<T extends TSchema>(schema: T): T {
  if (schema.default === undefined) throw new Error('Defaulted() needs a schema with a default');
  return Type.Optional(schema) as unknown as T;
}

/**
 * How a value is read: JSON as it is (types are exact), or text (query strings, path parameters,
 * imported CSV) whose numbers and booleans are coerced from their spelling.
 */
export type ValueReading = 'json' | 'text';

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, strict: false });
  addFormats.default(ajv);
  return ajv;
}

const readers: Record<ValueReading, Ajv> = { json: createAjv(false), text: createAjv(true) };
/** Response checks in tests: no defaults injected, no coercion. */
const responseAjv = new Ajv({ allErrors: true, strict: false });
addFormats.default(responseAjv);

const caches = new Map<Ajv, WeakMap<JsonSchema, ValidateFunction>>();

/** Compiles a schema once per ajv instance; schemas are module-level constants, so this is a few dozen. */
function compile(ajv: Ajv, schema: JsonSchema): ValidateFunction {
  let cache = caches.get(ajv);
  if (!cache) caches.set(ajv, (cache = new WeakMap()));
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

/** The check of values read as `reading`: it fills in defaults and, for text, coerces types in place. */
export const compiledSchema = (reading: ValueReading, schema: JsonSchema): ValidateFunction =>
  compile(readers[reading], schema);

// The package is CommonJS with a default export; normalise the interop shape once.
const localizePt = ((localizePtModule as unknown as { default?: unknown }).default ?? localizePtModule) as (
  errors: ErrorObject[],
) => void;

const typeNames: Record<string, string> = {
  string: 'texto',
  integer: 'número inteiro',
  number: 'número',
  boolean: 'booleano (true/false)',
  object: 'objeto',
  array: 'lista',
  null: 'nulo',
};

/** One Portuguese sentence per ajv error, naming the field. */
function describeError(error: ErrorObject, where: string): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const field = (name: string) => `${where}${name ? `.${name}` : ''}`;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `o campo ${field([path, p.missingProperty].filter(Boolean).join('.'))} é obrigatório`;
    case 'additionalProperties':
      return `o campo ${field([path, p.additionalProperty].filter(Boolean).join('.'))} não é reconhecido`;
    case 'type': {
      const types = String(p.type)
        .split(',')
        .map((t) => typeNames[t] ?? t);
      return `o campo ${field(path)} deve ser ${types.join(' ou ')}`;
    }
    case 'enum':
      return `o campo ${field(path)} deve ser um de: ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `o campo ${field(path)} deve ser ${error.keyword === 'minimum' ? 'no mínimo' : 'maior que'} ${String(p.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `o campo ${field(path)} deve ser ${error.keyword === 'maximum' ? 'no máximo' : 'menor que'} ${String(p.limit)}`;
    case 'minLength':
      return Number(p.limit) === 1
        ? `o campo ${field(path)} não pode estar vazio`
        : `o campo ${field(path)} deve ter pelo menos ${String(p.limit)} caracteres`;
    case 'maxLength':
      return `o campo ${field(path)} deve ter no máximo ${String(p.limit)} caracteres`;
    case 'minItems':
      return `o campo ${field(path)} deve ter pelo menos ${String(p.limit)} elementos`;
    case 'maxItems':
      return `o campo ${field(path)} deve ter no máximo ${String(p.limit)} elementos`;
    case 'pattern':
      return `o campo ${field(path)} tem formato inválido`;
    case 'format':
      return `o campo ${field(path)} deve ser ${p.format === 'email' ? 'um e-mail válido' : `no formato ${String(p.format)}`}`;
    case 'minProperties':
      return `${field(path)} deve ter pelo menos ${String(p.limit)} campo(s)`;
    default: {
      const copy = [{ ...error }];
      localizePt(copy);
      return `${field(path)}: ${copy[0]!.message ?? 'valor inválido'}`;
    }
  }
}

const IGNORED_KEYWORDS = new Set(['if', 'anyOf', 'oneOf', 'not']);

/** Turns ajv errors into one mensagem: the distinct sentences, joined. */
export function formatErrors(errors: ErrorObject[], where: string): string {
  let relevant = errors.filter((e) => !IGNORED_KEYWORDS.has(e.keyword));
  if (relevant.length === 0) relevant = errors;
  const sentences = [...new Set(relevant.map((e) => describeError(e, where)))];
  const text = sentences.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** For tests and the OpenAPI check: does this value match this schema? Returns the errors or null. */
export function checkAgainst(schema: JsonSchema, value: unknown): ErrorObject[] | null {
  const validate = compile(responseAjv, schema);
  return validate(value) ? null : validate.errors!;
}

/** For imported rows (CSV text or JSON): coerces types, returns the Portuguese message or null. */
export function recordProblem(schema: JsonSchema, value: unknown, where: string): string | null {
  const validate = compiledSchema('text', schema);
  return validate(value) ? null : formatErrors(validate.errors!, where);
}
