import { Type, type Static } from '@sinclair/typebox';

/** Body of POST /tools/execute: the tool, and its input (checked against the tool's own schema). */
export const ExecuteToolSchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 100 }),
    input: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
  },
  { additionalProperties: false },
);
export type ExecuteTool = Static<typeof ExecuteToolSchema>;
