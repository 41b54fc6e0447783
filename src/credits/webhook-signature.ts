import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a webhook's timestamp may be from our clock: replays of old deliveries are refused. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const mac = (secret: string, timestamp: number, body: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** The `X-Payment-Signature` value a provider sends: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, body: string, now: Date): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
}

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'stale' | 'mismatch';

export function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined,
  now: Date,
): SignatureCheck {
  if (!header) return 'missing';
  const parts = Object.fromEntries(
    header.split(',').map((part) => part.trim().split('=', 2) as [string, string]),
  );
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return 'malformed';
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(mac(secret, timestamp, body), 'hex');
  return timingSafeEqual(expected, Buffer.from(parts.v1!, 'hex')) ? 'ok' : 'mismatch';
}
