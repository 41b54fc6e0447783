import type { Services } from '../../services.js';
import { toolRegistry } from '../../tools/registry.js';
import { notFound } from '../../errors.js';
import { legacyRoute, type AnyRoute } from '../route.js';
import { validateInput } from '../validation.js';

const listSchema = {
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

/** GET /tools (what can run, with its input schema) and POST /tools/execute. */
export function toolsRoutes(services: Services): AnyRoute[] {
  const tools = toolRegistry(services.engine);
  return [
    legacyRoute<unknown, unknown, unknown, 'either'>({
      method: 'get',
      path: '/tools',
      auth: 'either',
      summary: 'Ferramentas disponíveis, com o esquema de entrada e de saída de cada uma',
      tags: ['Ferramentas'],
      responses: { 200: { description: 'Ferramentas', schema: listSchema } },
      async handler() {
        return {
          body: {
            success: true,
            tools: [...tools.values()].map((t) => ({
              slug: t.slug,
              summary: t.summary,
              input_schema: t.inputSchema,
              output_schema: t.outputSchema,
            })),
          },
        };
      },
    }),
    legacyRoute<{ slug: string; input: Record<string, unknown> }, unknown, unknown, 'either'>({
      method: 'post',
      path: '/tools/execute',
      auth: 'either',
      // the image travels in the body: up to 700 KB decoded, about 933 KB as base64 text
      bodyLimitKb: 1024,
      // free of credits, so a limit of its own per account (TOOL_RATE_LIMIT_PER_MINUTE), besides the plan's
      rateLimit: 'tool',
      summary: 'Executa uma ferramenta pelo seu slug',
      description:
        'O input é validado com o esquema da ferramenta (GET /tools). Slug desconhecido: 404. Além dos limites do plano, as execuções têm um limite por minuto próprio, por conta (todas as chaves e sessões).',
      tags: ['Ferramentas'],
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['slug', 'input'],
        properties: { slug: { type: 'string', minLength: 1, maxLength: 100 }, input: { type: 'object' } },
      },
      responses: {
        200: {
          description: 'Resultado da ferramenta',
          schema: {
            type: 'object',
            additionalProperties: false,
            required: ['success', 'slug', 'output'],
            properties: { success: { const: true }, slug: { type: 'string' }, output: { type: 'object' } },
          },
        },
      },
      errors: [404],
      async handler({ body, principal, log }) {
        const tool = tools.get(body.slug);
        if (!tool) {
          throw notFound(
            `Ferramenta desconhecida: ${body.slug}. Disponíveis: ${[...tools.keys()].join(', ')}.`,
            'TOOL_NOT_FOUND',
          );
        }
        log.tool = tool.slug;
        const input = validateInput('toolInput', tool.inputSchema, body.input);
        return { body: { success: true, slug: tool.slug, output: await tool.run(input, { principal }) } };
      },
    }),
  ];
}
