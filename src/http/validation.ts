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
  const validate = compiledSchema(location === 'body' || location === 'toolInput' ? 'json' : 'text', schema);
  if (validate(value)) return value;
  const custom = validate.errors!.find((e) => e.keyword === 'errorMessage');
  if (custom) throw invalid(custom.message!);
  throw invalid(formatErrors(validate.errors!, whereNames[location]), 'VALIDATION_ERROR', {});
}
