import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { MediaTypeObject, OperationObject, ParameterObject, ResponseObject } from 'openapi3-ts/oas31';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/web-api-types.js';
import { inlineRefs } from '../../src/http/openapi-components.js';
import { OPERATION_EXAMPLES } from '../../src/http/openapi-examples.js';

/**
 * The examples of /openapi.json (src/http/openapi-examples.ts, recorded from real answers by
 * `npm run docs:openapi-examples`) against the document the API serves: each one valid against
 * its schema, and none missing — every request body and every success answer has one, so that a
 * route added without examples, or a schema changed under its examples, fails here until the
 * script is run again.
 *
 * Exempt from "none missing": answers that are neither JSON nor CSV (the sandbox's HTML checkout
 * page, the redirects its buttons answer), which no client parses, and GET /openapi.json, whose
 * example would be the document itself.
 */

const document = openApiDocument();
const components = document.components?.schemas ?? {};
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);

/** ajv's complaints about `value` against a schema of the document, or null when it holds. */
function problems(schema: unknown, value: unknown): string | null {
  const validate = ajv.compile(inlineRefs(schema, components) as object);
  return validate(value) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
}

interface Operation {
  id: string;
  method: string;
  path: string;
  op: OperationObject;
}

const operations: Operation[] = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OperationObject>).map(([method, op]) => ({
    id: op.operationId!,
    method,
    path,
    op,
  })),
);

interface Example {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Every example the document carries: parameters, request bodies, answers. */
function examplesOf({ id, op }: Operation): Example[] {
  const found: Example[] = [];
  for (const parameter of (op.parameters ?? []) as ParameterObject[]) {
    if (parameter.example !== undefined) {
      found.push({
        where: `${id} ${parameter.in} ${parameter.name}`,
        schema: parameter.schema,
        value: parameter.example,
      });
    }
  }
  const media = (where: string, content: Record<string, MediaTypeObject> | undefined) => {
    for (const [type, { schema, example }] of Object.entries(content ?? {})) {
      if (example !== undefined) found.push({ where: `${where} ${type}`, schema, value: example });
    }
  };
  media(
    `${id} request`,
    (op.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content,
  );
  for (const [status, response] of Object.entries(op.responses ?? {})) {
    media(`${id} ${status}`, (response as ResponseObject).content);
  }
  return found;
}

const EXEMPT_OPERATIONS = new Set(['getOpenApiDocument']);
const parsedByClients = (type: string) => /json|^text\/csv/.test(type);

describe('the examples of /openapi.json', () => {
  const all = operations.flatMap(examplesOf);

  it.each(all.map((e) => [e.where, e] as const))('%s matches its schema', (_where, example) => {
    expect(problems(example.schema, example.value), JSON.stringify(example.value).slice(0, 400)).toBeNull();
  });

  it('cover every request body and every success answer a client parses', () => {
    const missing: string[] = [];
    for (const { id, op } of operations) {
      if (EXEMPT_OPERATIONS.has(id)) continue;
      const body = (op.requestBody as { content?: Record<string, MediaTypeObject> } | undefined)?.content;
      if (body && !Object.values(body).some((m) => m.example !== undefined)) missing.push(`${id} request`);
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) >= 300) continue;
        for (const [type, { example }] of Object.entries((response as ResponseObject).content ?? {})) {
          if (parsedByClients(type) && example === undefined) missing.push(`${id} ${status} ${type}`);
        }
      }
      for (const parameter of (op.parameters ?? []) as ParameterObject[]) {
        if (parameter.in === 'path' && parameter.example === undefined)
          missing.push(`${id} path ${parameter.name}`);
      }
    }
    expect(missing, 'run `npm run docs:openapi-examples` (and add the operation to its flow)').toEqual([]);
  });

  it('are of operations that exist', () => {
    const ids = new Set(operations.map((o) => o.id));
    const gone = Object.keys(OPERATION_EXAMPLES).filter((id) => id !== '*' && !ids.has(id));
    expect(gone, 'examples of operations no longer declared: run `npm run docs:openapi-examples`').toEqual(
      [],
    );
  });

  it('show the errors a client must handle: campos of a validation error, a 413, a 415, a 429', () => {
    const search = operations.find((o) => o.id === 'searchStock')!.op.responses!;
    const badRequest = (search['400'] as ResponseObject).content!['application/json']!.example as {
      code: string;
      campos: { campo: string }[];
    };
    expect(badRequest.code).toBe('VALIDATION_ERROR');
    expect(badRequest.campos.length).toBeGreaterThan(0);
    for (const status of ['413', '415', '429']) {
      const response = search[status] as ResponseObject;
      expect(response.content!['application/json']!.example, `searchStock ${status}`).toBeDefined();
    }
  });
});
