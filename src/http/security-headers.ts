/**
 * Headers every response carries, errors and Node-level refusals included. The API answers JSON
 * only: nothing of it is to be sniffed as another type, framed, or told where the caller came from.
 * HSTS only when configured: TLS is terminated in front of the API, which alone knows whether every
 * name it serves is HTTPS-only.
 */
export function securityHeaders(hstsMaxAgeSeconds: number): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    ...(hstsMaxAgeSeconds > 0 ? { 'Strict-Transport-Security': `max-age=${hstsMaxAgeSeconds}` } : {}),
  };
}
