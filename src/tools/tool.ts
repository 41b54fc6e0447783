import type { Principal } from '../principal.js';
import type { JsonSchema } from '../json-schema.js';

/** A named tool run through POST /tools/execute. Its input schema is validated before run(). */
export interface Tool<Input = unknown, Output = unknown> {
  slug: string;
  summary: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  run(input: Input, context: { principal: Principal }): Promise<Output>;
}

// The registry holds tools of different input types; each validates its own input first.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any, unknown>;
