import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { legacyRoute, type AnyRoute } from '../route.js';
import { ServiceError } from '../../errors.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

const checkSchema = {
  type: 'object',
  required: ['success', 'status', 'checks'],
  properties: {
    success: { type: 'boolean' },
    status: { enum: ['ok', 'unavailable'] },
    checks: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['ok', 'ms'],
        properties: { ok: { type: 'boolean' }, ms: { type: 'number' }, error: { type: 'string' } },
      },
    },
  },
};

const CHECK_TIMEOUT_MS = 2_000;

async function runCheck(check: ReadinessCheck): Promise<{ ok: boolean; ms: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check.check(),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error('sem resposta a tempo')), CHECK_TIMEOUT_MS)),
      ),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch {
    return { ok: false, ms: Math.round(performance.now() - started), error: 'indisponível' };
  } finally {
    clearTimeout(timer);
  }
}

/** How long one round of readiness checks answers every /ready of this process. */
const READINESS_REUSE_MS = 1_000;

type Readiness = [string, Awaited<ReturnType<typeof runCheck>>][];

/**
 * Runs the checks at most once a second per process, however many callers ask: every caller within
 * that second (and every caller while a round is under way) gets the same round's answer, so the
 * database and Redis see a ping a second from /ready rather than one per request.
 */
function sharedReadiness(checks: ReadinessCheck[]): () => Promise<Readiness> {
  let round: { startedAt: number; results: Promise<Readiness> } | null = null;
  return () => {
    const now = performance.now();
    if (!round || now - round.startedAt >= READINESS_REUSE_MS) {
      round = {
        startedAt: now,
        results: Promise.all(checks.map(async (c) => [c.name, await runCheck(c)] as const)),
      };
    }
    return round.results;
  };
}

export function healthRoutes(checks: ReadinessCheck[], openApi: () => OpenAPIObject): AnyRoute[] {
  const readiness = sharedReadiness(checks);
  return [
    legacyRoute({
      method: 'get',
      path: '/health',
      auth: 'public',
      rateLimit: 'none',
      summary: 'O processo está vivo',
      tags: ['Sistema'],
      responses: {
        200: {
          description: 'Vivo',
          schema: {
            type: 'object',
            required: ['success', 'status'],
            properties: { success: { const: true }, status: { const: 'ok' } },
          },
        },
      },
      handler: async () => ({ body: { success: true, status: 'ok' } }),
    }),
    legacyRoute({
      method: 'get',
      path: '/ready',
      auth: 'public',
      rateLimit: 'ready',
      summary: 'As dependências (Postgres, Redis, motor de pesquisa) respondem',
      description:
        'Verificadas no máximo uma vez por segundo por processo (quem pergunta nesse segundo recebe a mesma resposta); limitado por IP (READY_RATE_LIMIT_PER_MINUTE).',
      tags: ['Sistema'],
      errors: [503],
      responses: { 200: { description: 'Pronto', schema: checkSchema } },
      handler: async () => {
        const results = await readiness();
        const ok = results.every(([, r]) => r.ok);
        const body = { success: ok, status: ok ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
        if (ok) return { body };
        const failed = results.filter(([, r]) => !r.ok).map(([name]) => name);
        throw new ServiceError(
          'unavailable',
          'NOT_READY',
          `Serviço não está pronto: ${failed.join(', ')} indisponível.`,
          {
            checks: body.checks,
          },
        );
      },
    }),
    legacyRoute({
      method: 'get',
      path: '/openapi.json',
      auth: 'public',
      rateLimit: 'none',
      summary: 'Documento OpenAPI 3.1 desta API',
      tags: ['Sistema'],
      responses: {
        200: { description: 'Documento OpenAPI', schema: { type: 'object', required: ['openapi', 'paths'] } },
      },
      handler: async () => ({ body: openApi() }),
    }),
  ];
}
