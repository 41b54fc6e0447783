/**
 * The Bearer session: kept in memory and mirrored in sessionStorage (this tab only, gone when it
 * closes), sent as an Authorization header. No cookie, so the browser never attaches it on its own
 * and there is no CSRF surface; the strict CSP (no inline or foreign script) guards the storage.
 */
const STORAGE_KEY = 'pss.session';

interface Session {
  token: string;
  expiresAt: string;
}

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed = raw ? (JSON.parse(raw) as Session) : null;
    return parsed && Date.parse(parsed.expiresAt) > Date.now() ? parsed : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

export const session = {
  get token(): string | null {
    return current?.token ?? null;
  },
  start(token: string, expiresAt: string) {
    current = { token, expiresAt };
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(current));
  },
  clear() {
    current = null;
    sessionStorage.removeItem(STORAGE_KEY);
    createdKeys.length = 0;
  },
};

/** Keys created in this tab, offered to the playground (memory only: the API shows a key once). */
export const createdKeys: { name: string; key: string }[] = [];
