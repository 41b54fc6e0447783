// Written by `npm run docs:openapi-examples` (scripts/openapi-examples.ts) from real answers of
// the API: do not edit by hand. test/unit/openapi-document.test.ts checks each against its schema.

/** An operation's examples: its request, its parameters and its answers by status. */
export interface OperationExamples {
  request?: unknown;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  responses: Record<number, unknown>;
}

/** By operationId; '*' holds error answers true of every operation (a 413, a 415, a 429). */
export const OPERATION_EXAMPLES: Record<string, OperationExamples> = {};
