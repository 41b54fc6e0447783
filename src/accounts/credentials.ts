import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { randomBase62, sha256 } from '../crypto-text.js';

export const API_KEY_PREFIX = 'psk_';
export const BEARER_PREFIX = 'pst_';
/** characters of a key kept in clear for the owner to recognise it */
export const API_KEY_DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

export function newApiKey(): { key: string; hash: Buffer; displayPrefix: string } {
  const key = API_KEY_PREFIX + randomBase62(40);
  return { key, hash: sha256(key), displayPrefix: key.slice(0, API_KEY_DISPLAY_LENGTH) };
}

export function newBearerToken(): { token: string; hash: Buffer } {
  const token = BEARER_PREFIX + randomBase62(43);
  return { token, hash: sha256(token) };
}

// scrypt with N=2^17, r=8, p=1 needs 128 MiB of memory; maxmem must allow it.
export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT: ScryptParameters = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** scrypt$N$r$p$salt$hash, base64url parts: the parameters travel with the hash. */
export async function hashPassword(
  password: string,
  params: ScryptParameters = DEFAULT_SCRYPT,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
