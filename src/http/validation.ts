import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import localizePtModule from 'ajv-i18n/localize/pt-BR/index.js';
import type { TSchema } from '@sinclair/typebox';
import { invalid } from '../errors.js';

/** A JSON schema: a TypeBox schema (the declarations' form) or a plain object. */
export type JsonSchema = TSchema | Record<string, unknown>;

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, strict: false });
  addFormats.default(ajv);
  return ajv;
}

/** Bodies are JSON: types are exact. Query strings and path parameters are text: types are coerced. */
const bodyAjv = createAjv(false);
const textAjv = createAjv(true);
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

export type InputLocation = 'body' | 'query' | 'params' | 'toolInput';

const whereNames: Record<InputLocation, string> = {
  body: 'corpo',
  query: 'query',
  params: 'caminho',
  toolInput: 'corpo.input',
};

/** Numbers as query strings and paths may write them: plain decimals ("0x10", "1e3", " 1" are not). */
const DECIMAL_TEXT = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };

/**
 * ajv coerces text to numbers as Number() reads it, so "0x10" became 16 and "1.0" the id 1; a
 * numeric field of a query string or path must be written as a plain decimal.
 */
function assertDecimalText(location: InputLocation, schema: JsonSchema, value: unknown): void {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string | string[] }>;
  for (const [name, property] of Object.entries(properties)) {
    const text = (value as Record<string, unknown>)[name];
    if (typeof text !== 'string') continue;
    const types = ([] as string[]).concat(property.type ?? []);
    const kind = types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : null;
    if (kind && !DECIMAL_TEXT[kind].test(text)) {
      throw invalid(
        `O campo ${whereNames[location]}.${name} deve ser ${kind === 'integer' ? 'um número inteiro' : 'um número'} escrito em decimal.`,
        'VALIDATION_ERROR',
      );
    }
  }
}

/** Validates (and for query/params coerces) input in place; throws a 400 naming every bad field. */
export function validateInput(location: InputLocation, schema: JsonSchema, value: unknown): unknown {
  if (location === 'query' || location === 'params') assertDecimalText(location, schema, value);
  const validate = compile(location === 'body' || location === 'toolInput' ? bodyAjv : textAjv, schema);
  if (validate(value)) return value;
  const custom = validate.errors!.find((e) => e.keyword === 'errorMessage');
  if (custom) throw invalid(custom.message!);
  throw invalid(formatErrors(validate.errors!, whereNames[location]), 'VALIDATION_ERROR', {});
}

/** For tests and the OpenAPI check: does this value match this schema? Returns the errors or null. */
export function checkAgainst(schema: JsonSchema, value: unknown): ErrorObject[] | null {
  const validate = compile(responseAjv, schema);
  return validate(value) ? null : validate.errors!;
}

/** For imported rows (CSV text or JSON): coerces types, returns the Portuguese message or null. */
export function recordProblem(schema: JsonSchema, value: unknown, where: string): string | null {
  const validate = compile(textAjv, schema);
  return validate(value) ? null : formatErrors(validate.errors!, where);
}
