import {
  OpenApiBuilder,
  type HeadersObject,
  type OperationObject,
  type OpenAPIObject,
  type SchemaObject,
} from 'openapi3-ts/oas31';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js';
import { DEFAULT_BODY_LIMIT_KB } from './read-body.js';
import type { AnyRoute } from './route.js';

const errorSchema: SchemaObject = {
  type: 'object',
  required: ['success', 'mensagem', 'code'],
  properties: {
    success: { const: false },
    mensagem: { type: 'string', description: 'Descrição do erro, em português' },
    code: { type: 'string', description: 'Código estável do erro' },
  },
};

const rateLimitedSchema: SchemaObject = {
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      required: ['remaining', 'resetAt'],
      properties: {
        remaining: { type: 'integer', minimum: 0 },
        resetAt: { type: 'string', format: 'date-time' },
      },
    },
  ],
};

/** Headers of the service's responses, by name, as components.headers declares them. */
const HEADERS: Record<string, { description: string; schema: SchemaObject }> = {
  'X-Request-Id': {
    description: 'Identificador do pedido (o recebido, se válido); indique-o ao suporte',
    schema: { type: 'string' },
  },
  'X-API-Version': { description: 'Versão da API', schema: { type: 'string', const: '2.0' } },
  'X-RateLimit-Limit': {
    description: 'Pedidos permitidos na janela que limita primeiro',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Pedidos que restam nessa janela',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Quando essa janela recomeça, em segundos desde 1970 (UTC)',
    schema: { type: 'integer' },
  },
  'RateLimit-Policy': {
    description: 'Todas as janelas: "<pedidos>;w=<segundos>", separadas por vírgulas',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Segundos a aguardar antes de repetir',
    schema: { type: 'integer', minimum: 1 },
  },
};

const EVERY_RESPONSE = ['X-Request-Id', 'X-API-Version'];
const RATE_LIMITED = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit-Policy'];

const headerRefs = (names: string[]): HeadersObject =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const errorDescriptions: Record<number, string> = {
  400: 'Parâmetros inválidos ou em falta',
  401: 'Credencial em falta ou inválida',
  402: 'Créditos insuficientes ou limite diário atingido',
  403: 'Sem permissão',
  404: 'Recurso não encontrado',
  409: 'Conflito com o estado atual',
  413: 'Corpo do pedido demasiado grande',
  415: 'Corpo que não é JSON, ou Content-Encoding não suportado',
  422: 'Idempotency-Key já usada num pedido diferente (IDEMPOTENCY_KEY_REUSED)',
  429: 'Limite de pedidos excedido',
  500: 'Erro interno',
  503: 'Dependência indisponível',
};

/** Koa's /a/:id to OpenAPI's /a/{id} */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function errorStatuses(r: AnyRoute): number[] {
  const statuses = new Set<number>(r.errors ?? []);
  if (r.body || r.query || r.params) statuses.add(400);
  if (r.body) {
    statuses.add(413);
    statuses.add(415);
  }
  if (r.auth !== 'public') statuses.add(401);
  if (r.rateLimit !== 'none') statuses.add(429);
  if (r.idempotent) {
    statuses.add(400);
    statuses.add(409);
    statuses.add(422);
  }
  statuses.add(500);
  statuses.add(503);
  return [...statuses].sort();
}

function operation(r: AnyRoute): OperationObject {
  const op: OperationObject = {
    summary: r.summary,
    tags: r.tags,
    operationId: `${r.method}${openApiPath(r.path)
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string) => (c ? c.toUpperCase() : ''))}`,
  };
  if (r.description) op.description = r.description;
  if (r.auth === 'either') op.security = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
  else if (r.auth === 'bearer') op.security = [{ BearerAuth: [] }];
  else op.security = [];

  const parameters: NonNullable<OperationObject['parameters']> = [];
  for (const [location, schema] of [
    ['path', r.params],
    ['query', r.query],
  ] as const) {
    const properties = (schema?.properties ?? {}) as Record<string, SchemaObject>;
    const required = new Set((schema?.required as string[] | undefined) ?? []);
    for (const [name, propertySchema] of Object.entries(properties)) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        schema: propertySchema,
        ...(propertySchema.description ? { description: propertySchema.description } : {}),
      });
    }
  }
  if (r.idempotent) {
    parameters.push({
      name: IDEMPOTENCY_HEADER,
      in: 'header',
      required: false,
      description:
        'Chave única do pedido (por exemplo, um UUID), para o repetir sem o cobrar duas vezes. Durante 24 horas, o mesmo pedido da mesma conta com a mesma chave recebe a resposta guardada (com Idempotent-Replayed: true); com outros parâmetros, 422 IDEMPOTENCY_KEY_REUSED; enquanto o primeiro está em curso, 409 IDEMPOTENCY_KEY_IN_USE. Guardam-se as respostas de sucesso e os erros 4xx (exceto 400, 401, 409 e 429); um 5xx não, para que a repetição possa ter sucesso.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, minLength: 1, maxLength: 255 },
    });
  }
  if (parameters.length) op.parameters = parameters;
  if (r.body) {
    const schema = (r.documentedBody ?? r.body) as SchemaObject;
    op.requestBody = { required: true, content: { 'application/json': { schema } } };
  }

  const responses: NonNullable<OperationObject['responses']> = {};
  op.responses = responses;
  const limited = r.rateLimit !== 'none';
  for (const [status, doc] of Object.entries(r.responses)) {
    responses[status] = {
      description: doc.description,
      headers: {
        ...headerRefs(limited ? [...EVERY_RESPONSE, ...RATE_LIMITED] : EVERY_RESPONSE),
        ...(doc.headers as HeadersObject | undefined),
      },
      ...(doc.schema
        ? { content: { [doc.contentType ?? 'application/json']: { schema: doc.schema as SchemaObject } } }
        : {}),
    };
  }
  for (const status of errorStatuses(r)) {
    responses[String(status)] = {
      description:
        status === 413
          ? `${errorDescriptions[413]} (máximo ${r.bodyLimitKb ?? DEFAULT_BODY_LIMIT_KB} KB)`
          : (errorDescriptions[status] ?? 'Erro'),
      headers: headerRefs(
        status === 429
          ? [...EVERY_RESPONSE, ...RATE_LIMITED, 'Retry-After']
          : status === 409 && r.idempotent
            ? [...EVERY_RESPONSE, 'Retry-After']
            : EVERY_RESPONSE,
      ),
      content: {
        'application/json': {
          schema: {
            $ref: status === 429 ? '#/components/schemas/RateLimited' : '#/components/schemas/Error',
          },
        },
      },
    };
  }
  return op;
}

/** The OpenAPI 3.1 document of every declared route. */
export function buildOpenApi(routes: AnyRoute[], serverUrl: string): OpenAPIObject {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'Parts Stock Search API',
      version: '2.0',
      description:
        'Pesquisa de stock de peças automóveis por referência OEM/aftermarket, veículo, peça de catálogo ou texto livre, com estatísticas de preço e créditos por pesquisa.',
    })
    .addServer({ url: serverUrl })
    .addServer({ url: `${serverUrl.replace(/\/$/, '')}/v2`, description: 'Os mesmos caminhos sob /v2' })
    .addSchema('Error', errorSchema)
    .addSchema('RateLimited', rateLimitedSchema)
    .addSecurityScheme('ApiKeyAuth', { type: 'apiKey', in: 'header', name: 'X-API-Key' })
    .addSecurityScheme('BearerAuth', { type: 'http', scheme: 'bearer' });
  for (const [name, header] of Object.entries(HEADERS)) builder.addHeader(name, header);
  const paths = new Map<string, Record<string, OperationObject>>();
  for (const r of routes) {
    const path = openApiPath(r.path);
    const item = paths.get(path) ?? {};
    item[r.method] = operation(r);
    paths.set(path, item);
  }
  for (const [path, item] of paths) builder.addPath(path, item);
  return builder.getSpec();
}

/** The schema a response with this status must match (the error envelope for error statuses). */
export function responseSchemaFor(r: AnyRoute, status: number): Record<string, unknown> | undefined {
  if (r.responses[status]) return r.responses[status]!.schema;
  if (status >= 400) {
    return status === 429
      ? { ...errorSchema, required: ['success', 'mensagem', 'code', 'remaining', 'resetAt'] }
      : (errorSchema as Record<string, unknown>);
  }
  return undefined;
}
