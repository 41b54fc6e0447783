import type { AnyTool } from './tool.js';

export const toolListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'tools'],
  properties: {
    success: { const: true },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'summary', 'input_schema', 'output_schema'],
        properties: {
          slug: { type: 'string' },
          summary: { type: 'string' },
          input_schema: { type: 'object' },
          output_schema: { type: 'object' },
        },
      },
    },
  },
};

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
  properties: {
    success: { const: true },
    slug: { enum: tools.map((t) => t.slug) },
    output: { oneOf: tools.map((t) => ({ title: t.slug, ...t.outputSchema })) },
  },
});
