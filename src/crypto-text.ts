import { createHash, randomBytes } from 'node:crypto';

/** Random text for secrets and references, and the digest secrets are stored and compared by. */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 text (rejection sampling, so no character is favoured). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** SHA-256 of a secret: credentials are stored, cached and compared only by it. */
export const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
