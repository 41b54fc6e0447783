import type { AnyTool } from './tool.js';

/** A JSON Schema, as a value: a tool's input or output. */
const jsonSchemaValue = (what: string) => ({
  type: 'object',
  additionalProperties: true,
  description: `${what}, as a JSON Schema (draft 2020-12). This document names the same schemas (IdentifyPartInput, IdentifyPartOutput…).`,
});

const toolSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['slug', 'summary', 'input_schema', 'output_schema'],
  description: 'A tool that POST /tools/execute runs.',
  properties: {
    slug: { type: 'string', description: 'What POST /tools/execute’s `slug` takes.' },
    summary: { type: 'string', description: 'What it does, in Portuguese.' },
    input_schema: jsonSchemaValue('Its input'),
    output_schema: jsonSchemaValue('Its output'),
  },
};

export const toolListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'tools'],
  description: 'The tools this server runs.',
  properties: {
    success: { const: true },
    tools: { type: 'array', items: toolSchema },
  },
};

/** The tools' shapes by the names generated clients give them (a tool's own: its module's). */
export const toolsSchemaNames = { Tool: toolSchema, ToolListResult: toolListSchema };

export const toolView = (t: AnyTool) => ({
  slug: t.slug,
  summary: t.summary,
  input_schema: t.inputSchema,
  output_schema: t.outputSchema,
});

/** The body of POST /tools/execute: its output is one of the tools' outputs (their schemas, in OpenAPI too). */
export const toolResultSchema = (tools: AnyTool[]) => ({
  type: 'object',
  additionalProperties: false,
  required: ['success', 'slug', 'output'],
  description: 'What the tool answered.',
  properties: {
    success: { const: true },
    slug: {
      type: 'string',
      enum: tools.map((t) => t.slug),
      description: `The tool that ran. Open list: tools may be added.`,
    },
    output: tools.length === 1 ? tools[0]!.outputSchema : { oneOf: tools.map((t) => t.outputSchema) },
  },
});
