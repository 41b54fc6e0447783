export const healthSchema = {
  type: 'object',
  required: ['success', 'status'],
  description: 'The process is alive.',
  properties: { success: { const: true }, status: { const: 'ok' } },
};

const readinessCheckSchema = {
  type: 'object',
  required: ['ok', 'ms'],
  description: 'A dependency’s check.',
  properties: {
    ok: { type: 'boolean' },
    ms: { type: 'number', description: 'How long it took.' },
    error: { type: 'string', description: 'When it failed: why, in Portuguese.' },
  },
};

export const readinessSchema = {
  type: 'object',
  required: ['success', 'status', 'checks'],
  description: 'Whether every dependency answers.',
  properties: {
    success: { type: 'boolean' },
    status: { type: 'string', enum: ['ok', 'unavailable'], description: 'Closed list.' },
    checks: {
      type: 'object',
      description: 'Each dependency’s check, by name (postgres, redis, the search engine).',
      additionalProperties: readinessCheckSchema,
    },
  },
};

/** The system's shapes by the names generated clients give them. */
export const systemSchemaNames = {
  HealthResult: healthSchema,
  ReadinessResult: readinessSchema,
  ReadinessCheck: readinessCheckSchema,
};
