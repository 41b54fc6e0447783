import { Type, type Static } from '@sinclair/typebox';
import type { AnyTool } from './tool.js';

/** Body of POST /tools/execute: the tool, and its input (checked against the tool's own schema). */
export const ExecuteToolSchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 100, description: 'The tool to run (GET /tools).' }),
    input: Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      description: 'The tool’s input, as its schema says.',
    }),
  },
  { additionalProperties: false },
);
export type ExecuteTool = Static<typeof ExecuteToolSchema>;

/** One tool's execution: its slug and its input. */
const execution = (tool: AnyTool) => ({
  title: tool.slug,
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'input'],
  description: `Runs ${tool.slug}.`,
  properties: { slug: { type: 'string', enum: [tool.slug] }, input: tool.inputSchema },
});

/**
 * The same body as the document shows it: each tool's slug with that tool's input schema; with
 * several tools, one of them told apart by `slug` (a discriminator, which generators turn into a
 * choice of classes), with one, that one.
 */
export const documentedExecuteToolSchema = (tools: AnyTool[]) =>
  tools.length === 1
    ? execution(tools[0]!)
    : {
        description: 'A tool to run, and its input.',
        oneOf: tools.map(execution),
        discriminator: { propertyName: 'slug' },
      };
