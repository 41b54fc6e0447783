/**
 * The schema of a successful answer: `{ success: true, ...properties }`, nothing else (the error
 * answers' body is error-response.ts's envelope).
 */
export const successBody = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: ['success', ...Object.keys(properties)],
  properties: { success: { const: true }, ...properties },
});
