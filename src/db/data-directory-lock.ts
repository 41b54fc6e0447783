import lockfile from 'proper-lockfile';
import { ServiceError } from '../errors.js';

/**
 * How old the lock's mark may get before the lock counts as abandoned: its holder refreshes it
 * several times within this, so only a process that ended without releasing it (killed, crashed)
 * leaves one this old. Generous, because PGlite runs on the main thread: a long statement (a big
 * demo load's index build) stalls the refresh, and a lock taken over would let two processes write.
 */
const ABANDONED_AFTER_MS = 60_000;

/**
 * Holds the embedded database's data directory for this process. PGlite has no lock of its own
 * across processes, and two of them writing the same files corrupt the database: the API and an
 * operator command (account:plan, catalog:import) run on the same DATA_DIR would. A second opener
 * is refused at once, saying why, rather than waiting for the first to finish.
 * Returns the release.
 */
export async function lockDataDirectory(directory: string): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(directory, {
      stale: ABANDONED_AFTER_MS,
      update: ABANDONED_AFTER_MS / 4,
      realpath: false,
      // A lock found taken over (its refresh stalled past `stale`) must not end the process in the
      // middle of a write, which the default handler (a throw) would; it is said, and the release at
      // close then finds nothing to release.
      onCompromised: (error) => process.emitWarning(`lock of ${directory} lost: ${error.message}`),
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
    throw new ServiceError(
      'unavailable',
      'DATA_DIR_IN_USE',
      `O diretório de dados ${directory} está a ser usado por outro processo (npm start, account:plan ou catalog:import): ` +
        `o PostgreSQL embutido só aceita um de cada vez. Pare-o primeiro; se nenhum está a correr (terminou de forma abrupta), ` +
        `tente de novo dentro de ${ABANDONED_AFTER_MS / 60_000} minuto.`,
    );
  }
}
