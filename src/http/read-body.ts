import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { ServiceError, type ErrorCode } from '../errors.js';

/** Body size of a route that does not declare its own: search, stats, accounts, keys, the webhook. */
export const DEFAULT_BODY_LIMIT_KB = 32;

/** Statuses the JSON reader raises, with their Portuguese envelope (413 is the route's own). */
const readerErrors: Record<number, [ErrorCode, string]> = {
  400: ['INVALID_JSON', 'O corpo do pedido não é um objeto JSON válido.'],
  // only the decompression of the body raises it (inflation); a non-JSON body is mount-routes' 415
  415: [
    'UNSUPPORTED_CONTENT_ENCODING',
    'Content-Encoding não suportado: envie o corpo sem compressão ou em gzip, deflate ou br.',
  ],
};

/**
 * The reader of one route's JSON body, at most `limitKb` KB (after decompression). Run only once the
 * route matched, the credentials held and the rate limit let the request through, so that nothing
 * refused costs the reading and parsing of its body. A body announced larger than the limit
 * (Content-Length) is refused before a byte of it is read; one sent in chunks, as soon as it passes it.
 *
 * What the reader raises with a status keeps it (bad JSON, too large, unknown Content-Encoding);
 * anything else comes from reading the body itself, in practice a body that does not decompress as
 * its Content-Encoding says (zlib's Z_DATA_ERROR, brotli's ERR__ERROR_FORMAT_...), and is the
 * caller's 400. A body that has not arrived whole after `timeoutSeconds` is refused (408).
 */
export function bodyReader(limitKb: number, timeoutSeconds: number): (ctx: Context) => Promise<void> {
  const tooLarge = new ServiceError(
    'PAYLOAD_TOO_LARGE',
    `O corpo do pedido excede o limite de ${limitKb} KB desta rota.`,
  );
  const prototypeKey = new ServiceError(
    'INVALID_JSON',
    'O corpo do pedido usa a chave "__proto__", que não é aceite: retire-a.',
  );
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: limitKb * 1024,
    encoding: 'utf-8',
    onError(caught: Error) {
      const status = (caught as { status?: unknown }).status;
      if (status === 413) throw tooLarge;
      // the parser (co-body's @hapi/bourne) refuses a key that would poison prototypes
      if (status === 400 && /forbidden prototype property/.test(caught.message)) throw prototypeKey;
      const known = typeof status === 'number' ? readerErrors[status] : undefined;
      throw known
        ? new ServiceError(...known)
        : new ServiceError(
            'INVALID_CONTENT_ENCODING',
            'Não foi possível ler o corpo do pedido: não corresponde ao Content-Encoding indicado.',
          );
    },
  });
  return async (ctx) => {
    let read = false;
    const parsing = parse(ctx, async () => {
      read = true;
    });
    // most bodies are whole by now (they came with their headers): no deadline to set for them
    if (ctx.req.complete) await parsing;
    else await withinDeadline(ctx, parsing, timeoutSeconds);
    // the caller hung up before the body arrived: nobody is left to answer
    if (!read) throw new ServiceError('REQUEST_ABORTED', 'O pedido foi interrompido pelo cliente.');
  };
}

/**
 * A body still arriving past its deadline holds a connection for nothing (a client stuck, or one
 * sending a byte at a time): 408, and the connection closed with the answer. The reading left
 * behind ends with the connection, its failure swallowed by the race that lost it.
 */
async function withinDeadline(ctx: Context, parsing: Promise<void>, timeoutSeconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ctx.set('Connection', 'close');
      reject(
        new ServiceError('REQUEST_TIMEOUT', `O corpo do pedido não chegou completo em ${timeoutSeconds} s.`),
      );
    }, timeoutSeconds * 1000);
  });
  try {
    await Promise.race([parsing, late]);
  } finally {
    clearTimeout(timer);
  }
}
