import type { ErrorObject } from 'ajv';
import { invalid } from '../errors.js';
import { compiledSchema, formatErrors, type JsonSchema } from '../json-schema.js';

/** Where an input came from, and how its fields are named in the messages (corpo.name, query.page...). */
export type InputLocation = 'body' | 'query' | 'params' | 'toolInput';

const whereNames: Record<InputLocation, string> = {
  body: 'corpo',
  query: 'query',
  params: 'caminho',
  toolInput: 'corpo.input',
};

/**
 * One field that failed, as a 400 VALIDATION_ERROR lists it in `campos`: the field as the message
 * names it (corpo.per_page, query.page, caminho.id), why (a stable word), and the sentence.
 */
export interface FieldProblem {
  campo: string;
  motivo: FieldProblemReason;
  mensagem: string;
}

/** Why a field failed. */
export const FIELD_PROBLEM_REASONS = [
  'required',
  'unknown',
  'type',
  'enum',
  'minimum',
  'maximum',
  'min_length',
  'max_length',
  'min_items',
  'max_items',
  'pattern',
  'format',
  'min_properties',
  'not_decimal',
  'not_finite',
  'too_deep',
  'invalid_characters',
  'invalid',
] as const;
export type FieldProblemReason = (typeof FIELD_PROBLEM_REASONS)[number];

const REASONS: Record<string, FieldProblemReason> = {
  required: 'required',
  additionalProperties: 'unknown',
  type: 'type',
  enum: 'enum',
  const: 'enum',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  pattern: 'pattern',
  format: 'format',
  minProperties: 'min_properties',
};

/** Keywords that only say that a branch failed: its own errors name the field. */
const BRANCH_KEYWORDS = new Set(['if', 'anyOf', 'oneOf', 'not']);

/** The fields ajv's errors name, each once per reason, in the order ajv found them. */
function fieldProblems(errors: ErrorObject[], where: string): FieldProblem[] {
  let relevant = errors.filter((e) => !BRANCH_KEYWORDS.has(e.keyword));
  if (relevant.length === 0) relevant = errors;
  const problems = new Map<string, FieldProblem>();
  for (const error of relevant) {
    const p = error.params as Record<string, unknown>;
    const leaf = error.keyword === 'required' ? p.missingProperty : p.additionalProperty;
    const path = [
      ...error.instancePath.split('/').filter(Boolean),
      ...(typeof leaf === 'string' && ['required', 'additionalProperties'].includes(error.keyword)
        ? [leaf]
        : []),
    ];
    const campo = [where, ...path].join('.');
    const motivo = REASONS[error.keyword] ?? 'invalid';
    const key = `${campo}\n${motivo}`;
    if (!problems.has(key)) problems.set(key, { campo, motivo, mensagem: formatErrors([error], where) });
  }
  return [...problems.values()];
}

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
      const campo = `${whereNames[location]}.${name}`;
      const mensagem = `O campo ${campo} deve ser ${kind === 'integer' ? 'um número inteiro' : 'um número'} escrito em decimal.`;
      throw invalid(mensagem, 'VALIDATION_ERROR', { campos: [{ campo, motivo: 'not_decimal', mensagem }] });
    }
  }
}

/**
 * Validates (and for query/params coerces) input in place; throws a 400 VALIDATION_ERROR naming every
 * bad field in its message and listing them in `campos`.
 */
export function validateInput(location: InputLocation, schema: JsonSchema, value: unknown): unknown {
  if (location === 'query' || location === 'params') assertDecimalText(location, schema, value);
  const validate = compiledSchema(location === 'body' || location === 'toolInput' ? 'json' : 'text', schema);
  if (validate(value)) return value;
  const custom = validate.errors!.find((e) => e.keyword === 'errorMessage');
  if (custom) throw invalid(custom.message!);
  const where = whereNames[location];
  throw invalid(formatErrors(validate.errors!, where), 'VALIDATION_ERROR', {
    campos: fieldProblems(validate.errors!, where),
  });
}
