import { route, type AnyRoute } from '../http/route.js';
import { validateInput } from '../http/validation.js';
import { notFound } from '../errors.js';
import type { ToolRegistry } from './registry.js';
import { documentedExecuteToolSchema, ExecuteToolSchema } from './tools.schemas.js';
import { toolListSchema, toolResultSchema, toolView } from './tools.views.js';

/** GET /tools (what can run, with its input schema) and POST /tools/execute. */
export function toolsRoutes({ tools }: { tools: ToolRegistry }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/tools',
      auth: 'either',
      summary: 'Ferramentas disponíveis, com o esquema de entrada e de saída de cada uma',
      tags: ['Ferramentas'],
      responses: { 200: { description: 'Ferramentas', schema: toolListSchema } },
      async handler() {
        return { body: { success: true, tools: [...tools.values()].map(toolView) } };
      },
    }),
    route({
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
      body: ExecuteToolSchema,
      documentedBody: documentedExecuteToolSchema([...tools.values()]),
      responses: {
        200: { description: 'Resultado da ferramenta', schema: toolResultSchema([...tools.values()]) },
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
