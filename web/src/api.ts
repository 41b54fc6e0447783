import { session } from './session';

/** A refusal of the API: its status, stable code, Portuguese message and the field it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly mensagem: string,
    readonly field: string | null,
  ) {
    super(mensagem);
  }
}

export type Credential = { kind: 'bearer' } | { kind: 'apiKey'; key: string } | { kind: 'none' };

export interface Answer<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** Called when a Bearer request gets 401: the session is over (set by the app: back to the login). */
let onSessionExpired: () => void = () => {};
export const setSessionExpiredHandler = (handler: () => void) => {
  onSessionExpired = handler;
};

/** The field a message names: `field` in the body (LIMIT_ABOVE_PLAN) or `corpo.<name>` in the text. */
function namedField(body: Record<string, unknown>): string | null {
  if (typeof body.field === 'string') return body.field;
  const match = /corpo\.([a-z_]+)/i.exec(String(body.mensagem ?? ''));
  return match?.[1] ?? null;
}

export function credentialHeaders(credential: Credential): Record<string, string> {
  if (credential.kind === 'apiKey') return { 'X-API-Key': credential.key };
  if (credential.kind === 'bearer' && session.token) return { Authorization: `Bearer ${session.token}` };
  return {};
}

/** A path with its query, the empty values left out. */
function withQuery(path: string, query: Record<string, string | number | boolean | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, String(value));
  }
  return params.size ? `${path}?${params}` : path;
}

/** A refused answer as an ApiError; a 401 to a Bearer request ends the session first. */
function refusal(status: number, statusText: string, body: Record<string, unknown>, credential: Credential) {
  if (status === 401 && credential.kind === 'bearer') {
    session.clear();
    onSessionExpired();
  }
  return new ApiError(
    status,
    String(body.code ?? 'HTTP_' + status),
    String(body.mensagem ?? statusText),
    namedField(body),
  );
}

const networkError = () => new ApiError(0, 'NETWORK', 'Sem ligação à API. / No connection to the API.', null);

export async function api<T>(
  method: string,
  path: string,
  options: {
    body?: unknown;
    credential?: Credential;
    query?: Record<string, string | number | undefined>;
  } = {},
): Promise<Answer<T>> {
  const credential = options.credential ?? { kind: 'bearer' };
  const url = withQuery(path, options.query);
  const headers: Record<string, string> = { Accept: 'application/json', ...credentialHeaders(credential) };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw networkError();
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw refusal(response.status, response.statusText, body, credential);
  return { data: body as T, status: response.status, headers: response.headers };
}

/** How much of an upload's body has gone. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * A file sent as the request's body (POST, with the session), its progress reported as it goes:
 * XMLHttpRequest, whose upload events fetch has no equivalent of (a streamed fetch body needs
 * HTTP/2 in Chromium). The answer is read as api() reads one.
 */
export function upload<T>(
  path: string,
  options: {
    file: Blob;
    headers: Record<string, string>;
    query?: Record<string, string | number | boolean | undefined>;
    onProgress: (progress: UploadProgress) => void;
  },
): Promise<Answer<T>> {
  const credential: Credential = { kind: 'bearer' };
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', withQuery(path, options.query));
    const headers = { Accept: 'application/json', ...credentialHeaders(credential), ...options.headers };
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    const total = options.file.size;
    request.upload.onprogress = (event) =>
      options.onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : total });
    request.upload.onload = () => options.onProgress({ loaded: total, total });
    request.onerror = () => reject(networkError());
    request.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(request.responseText) as Record<string, unknown>;
      } catch {
        // not JSON: the status says what happened
      }
      if (request.status < 200 || request.status >= 300) {
        reject(refusal(request.status, request.statusText, body, credential));
        return;
      }
      const answerHeaders = new Headers();
      for (const line of request
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) answerHeaders.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ data: body as T, status: request.status, headers: answerHeaders });
    };
    request.send(options.file);
  });
}

/** A file the API answers with (a report), fetched with the session: its bytes and the name it gives. */
export async function download(path: string): Promise<{ blob: Blob; filename: string | null }> {
  const credential: Credential = { kind: 'bearer' };
  let response: Response;
  try {
    response = await fetch(path, { headers: credentialHeaders(credential) });
  } catch {
    throw networkError();
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    throw refusal(response.status, response.statusText, body, credential);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}
