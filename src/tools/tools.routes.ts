import { route, type AnyRoute, type ApiTag } from '../http/route.js';
import { validateInput } from '../http/validation.js';
import { notFound } from '../errors.js';
import type { ToolRegistry } from './registry.js';
import { documentedExecuteToolSchema, ExecuteToolSchema } from './tools.schemas.js';
import { toolListSchema, toolResultSchema, toolsSchemaNames, toolView } from './tools.views.js';
import { identifyPartSchemaNames } from './identify-part.schemas.js';

const TAG: ApiTag = {
  name: 'Tools',
  description:
    'Named tools, run with an API key or a Bearer session, free of credits (10 runs a minute per account besides the plan). `identificar-peca` reads the part numbers printed in a photo of a part, its box or its label, and says what the stock holds of each.',
};

/** GET /tools (what can run, with its input schema) and POST /tools/execute. */
export function toolsRoutes({ tools }: { tools: ToolRegistry }): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/tools',
      auth: 'either',
      scope: 'search',
      operationId: 'listTools',
      summary: 'The tools, with their input and output schemas',
      description:
        'Every tool this server runs: its slug, what it does, and its input and output as JSON Schemas.',
      tags: [TAG],
      schemas: toolsSchemaNames,
      responses: { 200: { description: 'The tools', schema: toolListSchema } },
      async handler() {
        return { body: { success: true, tools: [...tools.values()].map(toolView) } };
      },
    }),
    route({
      method: 'post',
      path: '/tools/execute',
      auth: 'either',
      scope: 'search',
      // the image travels in the body: up to 700 KB decoded, about 933 KB as base64 text
      bodyLimitKb: 1024,
      // free of credits, so a limit of its own per account (TOOL_RATE_LIMIT_PER_MINUTE), besides the plan's
      rateLimit: 'tool',
      operationId: 'executeTool',
      summary: 'Run a tool',
      description:
        'The input is checked against the tool’s schema (400 `VALIDATION_ERROR`, fields named `corpo.input.…`); an unknown slug is a 404 `TOOL_NOT_FOUND`. Free of credits; besides the plan’s limits, runs have a per-minute limit of their own per account (all its keys and sessions). ' +
        '`identificar-peca`: an image that does not decode, is too large or is not the type it says is a 400 `INVALID_IMAGE`; reading it may take up to 8 seconds, past which the answer comes from the description alone (`leitura`: `tempo_esgotado`).',
      tags: [TAG],
      schemas: {
        ...toolsSchemaNames,
        ...identifyPartSchemaNames,
        ToolExecutionRequest: documentedExecuteToolSchema([...tools.values()]),
        ToolExecutionResult: toolResultSchema([...tools.values()]),
      },
      body: ExecuteToolSchema,
      documentedBody: documentedExecuteToolSchema([...tools.values()]),
      responses: {
        200: { description: 'What the tool answered', schema: toolResultSchema([...tools.values()]) },
      },
      errors: ['TOOL_NOT_FOUND', 'INVALID_IMAGE'],
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
