import { Type, type Static } from '@sinclair/typebox';
import type { AnyTool } from './tool.js';

/** Body of POST /tools/execute: the tool, and its input (checked against the tool's own schema). */
export const ExecuteToolSchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 100 }),
    input: Type.Unsafe<Record<string, unknown>>({ type: 'object' }),
  },
  { additionalProperties: false },
);
export type ExecuteTool = Static<typeof ExecuteToolSchema>;

/** The same body as the document shows it: each tool's slug with that tool's input schema. */
export const documentedExecuteToolSchema = (tools: AnyTool[]) => ({
  oneOf: tools.map((tool) => ({
    title: tool.slug,
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'input'],
    properties: { slug: { const: tool.slug }, input: tool.inputSchema },
  })),
});
