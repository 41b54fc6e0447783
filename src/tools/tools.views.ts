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

export const toolResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'slug', 'output'],
  properties: { success: { const: true }, slug: { type: 'string' }, output: { type: 'object' } },
};
