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
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const url = query.size ? `${path}?${query}` : path;
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
    throw new ApiError(0, 'NETWORK', 'Sem ligação à API. / No connection to the API.', null);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    if (response.status === 401 && credential.kind === 'bearer') {
      session.clear();
      onSessionExpired();
    }
    throw new ApiError(
      response.status,
      String(body.code ?? 'HTTP_' + response.status),
      String(body.mensagem ?? response.statusText),
      namedField(body),
    );
  }
  return { data: body as T, status: response.status, headers: response.headers };
}
