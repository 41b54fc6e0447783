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

const SIGNATURE = /^[0-9a-f]{64}$/;

export type SignatureCheck = 'ok' | 'missing' | 'malformed' | 'stale' | 'mismatch';

/**
 * Checks `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: the timestamp within the tolerance and ANY of the
 * v1 signatures matching (a provider rotating its secret signs with both for a while). Every v1 is
 * compared, in constant time, whichever matches. Other schemes (v0=…) are ignored.
 */
export function verifyWebhook(
  secret: string,
  body: string,
  header: string | undefined,
  now: Date,
): SignatureCheck {
  if (!header) return 'missing';
  const timestamps: string[] = [];
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2) as [string, string?];
    if (name === 't') timestamps.push(value);
    else if (name === 'v1' && SIGNATURE.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  const timestamp = Number(timestamps[0]);
  if (timestamps.length !== 1 || !/^[0-9]{1,12}$/.test(timestamps[0]!) || !signatures.length) {
    return 'malformed';
  }
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(mac(secret, timestamp, body), 'hex');
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(expected, signature) || matched;
  return matched ? 'ok' : 'mismatch';
}
