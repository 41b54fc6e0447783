import type { JsonSchema } from '../json-schema.js';

/**
 * Named schemas in the OpenAPI document. A route declares the schemas it wants named (its
 * `schemas`); wherever the document would repeat one of them (equal in content, a description of
 * its own aside), it refers to components.schemas.<name> instead. Matching by content rather than
 * by object identity: TypeBox's Optional() and the views' spreads copy schemas, and a copy is the
 * same type for a client.
 */

type Schema = Record<string, unknown>;

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const MANY = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** JSON with sorted keys (symbols, such as TypeBox's, are not part of a schema's content). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isSchema(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two schemas the same type: everything but their own description and examples. */
function identity(schema: Schema): string {
  const { description: _d, examples: _e, example: _x, ...rest } = schema;
  return canonical(rest);
}

export class SchemaComponents {
  private readonly byIdentity = new Map<string, string>();
  private readonly schemas = new Map<string, Schema>();

  /** Names `schema`; the same name for another schema, or two names for one, is a mistake. */
  name(name: string, schema: JsonSchema): void {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`schema name ${name}: use PascalCase ASCII`);
    const key = identity(schema as Schema);
    const known = this.schemas.get(name);
    if (known) {
      if (identity(known) !== key) throw new Error(`two different schemas are both named ${name}`);
      return;
    }
    const other = this.byIdentity.get(key);
    if (other) throw new Error(`one schema is named both ${other} and ${name}`);
    this.byIdentity.set(key, name);
    this.schemas.set(name, schema as Schema);
  }

  /** A copy of `schema` as the document shows it: named parts replaced by a $ref. */
  use(schema: JsonSchema): Schema {
    return this.visit(schema as Schema, false);
  }

  /** components.schemas: every named schema (its own named parts as $refs), by name. */
  definitions(): Record<string, Schema> {
    return Object.fromEntries(
      [...this.schemas.keys()].sort().map((name) => [name, this.visit(this.schemas.get(name)!, true)]),
    );
  }

  private visit(schema: Schema, isDefinition: boolean): Schema {
    if (!isDefinition) {
      const name = this.byIdentity.get(identity(schema));
      if (name) {
        const ref: Schema = { $ref: `#/components/schemas/${name}` };
        const own = schema.description;
        if (typeof own === 'string' && own !== this.schemas.get(name)!.description) ref.description = own;
        return ref;
      }
    }
    const out: Schema = {};
    for (const [key, value] of Object.entries(generatorFriendly(schema))) {
      if (value === undefined) continue;
      if (ONE.includes(key) && isSchema(value)) out[key] = this.visit(value, false);
      else if (MANY.includes(key) && Array.isArray(value))
        out[key] = value.map((v) => (isSchema(v) ? this.visit(v, false) : v));
      else if (MAP.includes(key) && isSchema(value))
        out[key] = Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k, isSchema(v) ? this.visit(v, false) : v]),
        );
      else out[key] = structuredCloneJson(value);
    }
    return setOfInlineEnum(out);
  }
}

/**
 * A `const` as generators read it best: a boolean const (`success: true`) becomes a boolean said
 * to be always that value (Java's generator makes a one-value enum class of it, or an Object), a
 * string const a one-value string enum (an enum constant in Java, a literal type in TypeScript).
 * The services' own checks keep the const.
 */
function generatorFriendly(schema: Schema): Schema {
  const value = schema.const;
  if (typeof value === 'boolean') {
    const { const: _c, ...rest } = schema;
    return {
      type: 'boolean',
      ...rest,
      description: (schema.description as string | undefined) ?? `Always ${value}.`,
    };
  }
  if (typeof value === 'string') {
    const { const: _c, ...rest } = schema;
    return { type: 'string', ...rest, enum: [value] };
  }
  return schema;
}

/**
 * An array of distinct values of an enum written inline: Java's generator (7.25) makes it a
 * Set<InnerEnum> whose query-string code does not compile. Shown as a list, its distinctness said in
 * words; naming the enum (a route's `schemas`) keeps uniqueItems, as a Set of the named enum compiles.
 */
function setOfInlineEnum(schema: Schema): Schema {
  const items = schema.items;
  if (!schema.uniqueItems || !isSchema(items) || !Array.isArray(items.enum)) return schema;
  const { uniqueItems: _u, ...rest } = schema;
  const said = typeof schema.description === 'string' ? `${schema.description} ` : '';
  return { ...rest, description: `${said}No value is repeated.` };
}

/** A plain copy (no symbols, no shared objects) of a JSON value. */
const structuredCloneJson = (value: unknown): unknown =>
  value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);

/**
 * `schema` with every local $ref (#/components/schemas/...) of `document` replaced by what it
 * names: for tools that read one schema alone (the dashboard's types, ajv in tests). A $ref's own
 * description wins over the component's.
 */
export function inlineRefs(schema: unknown, components: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, components));
  if (!isSchema(schema)) return schema;
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = components[ref.slice('#/components/schemas/'.length)];
    if (!target) throw new Error(`unknown $ref ${ref}`);
    const { $ref: _ref, ...siblings } = schema;
    return { ...(inlineRefs(target, components) as Schema), ...siblings };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineRefs(v, components)]));
}
