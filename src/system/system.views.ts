export const healthSchema = {
  type: 'object',
  required: ['success', 'status'],
  properties: { success: { const: true }, status: { const: 'ok' } },
};

export const readinessSchema = {
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
