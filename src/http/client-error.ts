import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { ErrorCode } from '../errors.js';
import { statusOfCode } from './error-response.js';

/** What Node refuses before any middleware runs, as Node itself would answer it, in our envelope. */
const REFUSALS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'REQUEST_HEADERS_TOO_LARGE',
    'O endereço ou os cabeçalhos do pedido são demasiado longos (máximo de 16 KB no total).',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    'PAYLOAD_TOO_LARGE',
    'As extensões dos blocos do corpo do pedido são demasiado longas.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'O pedido não chegou completo a tempo.'],
};
const MALFORMED: [ErrorCode, string] = [
  'MALFORMED_REQUEST',
  'Pedido HTTP mal formado: não foi possível lê-lo.',
];

/**
 * The http server's 'clientError' listener. Node answers a request it cannot parse (an over-long
 * URL or headers: 431; malformed: 400) before Koa sees it, with a bare status line; with a listener
 * it leaves the answer to us, so it gets the JSON envelope and the headers every response has.
 */
export function clientErrorResponder(headers: Record<string, string>) {
  return (error: Error & { code?: string }, socket: Socket) => {
    // a response already under way on this connection (keep-alive) cannot be followed by another
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    const [code, mensagem] = REFUSALS[error.code ?? ''] ?? MALFORMED;
    const status = statusOfCode(code);
    const body = JSON.stringify({ success: false, mensagem, code });
    const lines = [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      `X-Request-Id: ${randomUUID()}`,
      'X-API-Version: 2.0',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  };
}
