import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ServiceError } from '../errors.js';

/**
 * Who holds a data directory: enough for a later process on the same host to tell whether the
 * holder still runs, as PostgreSQL's postmaster.pid does.
 */
interface LockOwner {
  pid: number;
  host: string;
  /** the holder's start (boot and start time, Linux): a pid reused by another process differs */
  started: string | null;
  /** this lock's own mark: a takeover removes exactly the lock it found abandoned */
  token: string;
  since: string;
}

/**
 * A takeover in progress is itself marked (a directory beside the lock), so two processes that find
 * the same abandoned lock cannot both remove it, the second one removing the first one's new lock.
 * A process dies inside that mark only if killed in the few microseconds it is held: a mark this old
 * is left over.
 */
const TAKEOVER_ABANDONED_AFTER_MS = 10_000;
const TAKEOVER_WAIT_MS = 50;
/** tries before giving up: each one found another process taking over or just releasing */
const MAX_ATTEMPTS = 100;

/** The tokens of the locks this process holds, by lock file: a second open here is refused too. */
const heldHere = new Map<string, string>();

let bootId: string | null | undefined;
function currentBootId(): string | null {
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      bootId = null;
    }
  }
  return bootId;
}

/** When a process started, as Linux tells it (null elsewhere, or when it cannot be read). */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name, which may itself hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTime = fields[19]; // field 22 of proc(5), counted from the state (field 3)
    const boot = currentBootId();
    return startTime && boot ? `${boot}:${startTime}` : null;
  } catch {
    return null;
  }
}

function isOwner(value: unknown): value is LockOwner {
  const v = value as Partial<LockOwner> | null;
  return Number.isInteger(v?.pid) && typeof v?.host === 'string' && typeof v.token === 'string' && v.pid! > 0;
}

/** The lock's owner; null when the file is unreadable (left half-written); undefined when gone. */
async function readOwner(file: string): Promise<LockOwner | null | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isOwner(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

type HolderState = 'running' | 'gone' | 'elsewhere';

function holderState(file: string, owner: LockOwner | null): HolderState {
  // only a process that died while writing it leaves a lock no process can read
  if (!owner) return 'gone';
  if (owner.host !== hostname()) return 'elsewhere';
  // our own pid: this process, or one before it that had the same pid (a container restarted)
  if (owner.pid === process.pid) return heldHere.get(file) === owner.token ? 'running' : 'gone';
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
  }
  const started = processStart(owner.pid);
  if (owner.started && started && owner.started !== started) return 'gone';
  return 'running';
}

/**
 * Creates the lock file with its whole content at once, or finds it there (false): written beside
 * it, then hard-linked into place, so no other process ever reads a lock half-written. A file
 * system without hard links gets an exclusive create instead.
 */
async function createLock(file: string, owner: LockOwner): Promise<boolean> {
  const content = JSON.stringify(owner) + '\n';
  const draft = `${file}.${owner.token}.tmp`;
  await writeFile(draft, content, { flag: 'wx' });
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    try {
      await writeFile(file, content, { flag: 'wx' });
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Removes the lock its holder abandoned, if it is still the one found (`token`): under the takeover
 * mark, so one process at a time. Another process already taking over: waits a moment instead.
 */
async function removeAbandoned(file: string, token: string | null): Promise<void> {
  const mark = `${file}.takeover`;
  try {
    await mkdir(mark);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = await stat(mark).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > TAKEOVER_ABANDONED_AFTER_MS) await rmdir(mark).catch(() => undefined);
    await pause(TAKEOVER_WAIT_MS);
    return;
  }
  try {
    const owner = await readOwner(file);
    if (owner !== undefined && (owner?.token ?? null) === token) {
      await unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
  } finally {
    await rmdir(mark).catch(() => undefined);
  }
}

const USERS = 'npm start, account:plan, account:credits, catalog:seed ou catalog:import';

function inUse(directory: string, owner: LockOwner): ServiceError {
  return new ServiceError(
    'DATA_DIR_IN_USE',
    `O diretório de dados ${directory} está a ser usado por outro processo (pid ${owner.pid}, desde ${owner.since}; ${USERS}): ` +
      'o PostgreSQL embutido só aceita um de cada vez. Pare-o primeiro.',
  );
}

function inUseElsewhere(directory: string, file: string, owner: LockOwner): ServiceError {
  return new ServiceError(
    'DATA_DIR_IN_USE',
    `O diretório de dados ${directory} está a ser usado por outro processo, na máquina ${owner.host} (pid ${owner.pid}, desde ${owner.since}; ${USERS}): ` +
      `o PostgreSQL embutido só aceita um de cada vez. Daqui não se vê se esse processo ainda corre: se já não corre, apague ${file}.`,
  );
}

function takenOverMeanwhile(directory: string): ServiceError {
  return new ServiceError(
    'DATA_DIR_IN_USE',
    `O diretório de dados ${directory} está a ser tomado por outros processos ao mesmo tempo (${USERS}): ` +
      'o PostgreSQL embutido só aceita um de cada vez. Tente de novo quando só um estiver a arrancar.',
  );
}

/**
 * Holds the embedded database's data directory for this process. PGlite has no lock of its own
 * across processes, and two of them writing the same files corrupt the database: the API and an
 * operator command run on the same DATA_DIR would. A second opener is refused at once, saying who
 * holds it. The lock (`<directory>.pid`) names its holder's pid and host: a holder that is gone
 * (killed, crashed) leaves a lock the next opener on this host takes over at once; a holder on
 * another host (a shared disk) cannot be checked from here, and the refusal says what to remove.
 * Returns the release.
 */
export async function lockDataDirectory(directory: string): Promise<() => Promise<void>> {
  const file = `${directory}.pid`;
  const mine: LockOwner = {
    pid: process.pid,
    host: hostname(),
    started: processStart(process.pid),
    token: randomUUID(),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    if (await createLock(file, mine)) break;
    const owner = await readOwner(file);
    if (owner === undefined) continue; // released meanwhile
    const state = holderState(file, owner);
    if (state === 'running') throw inUse(directory, owner!);
    if (state === 'elsewhere') throw inUseElsewhere(directory, file, owner!);
    if (attempt >= MAX_ATTEMPTS) throw takenOverMeanwhile(directory);
    await removeAbandoned(file, owner?.token ?? null);
  }
  heldHere.set(file, mine.token);
  return async () => {
    if (heldHere.get(file) !== mine.token) return;
    heldHere.delete(file);
    const owner = await readOwner(file);
    if (owner?.token === mine.token) await unlink(file).catch(() => undefined);
  };
}
