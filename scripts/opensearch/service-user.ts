/**
 * OpenSearch refuses to run as root, and we are root in CI and in containers. Then the node runs
 * as a dedicated system user, created on first use, that owns the distribution and the cluster
 * directories. Anyone else runs the node as themselves.
 */
import { runCommand } from './run-command.js';
import { UserError } from './user-error.js';

const SERVICE_USER = 'opensearch';

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Creates the user if missing and hands it `dirs` (recursively). Root only. */
export async function prepareServiceUser(dirs: string[]): Promise<void> {
  if ((await runCommand('id', ['-u', SERVICE_USER])).code !== 0) {
    const created = await runCommand('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      SERVICE_USER,
    ]);
    if (created.code !== 0) {
      throw new UserError(`Não foi possível criar o utilizador de sistema ${SERVICE_USER} (useradd).`);
    }
  }
  const owned = await runCommand('chown', ['-R', `${SERVICE_USER}:${SERVICE_USER}`, ...dirs]);
  if (owned.code !== 0) throw new UserError(`chown para ${SERVICE_USER} falhou: ${owned.output.trim()}`);
  // Owning the files is not enough if a parent (e.g. a checkout under /root) is closed to others.
  for (const dir of dirs) {
    const reachable = await runCommand(...asServiceUser('test', ['-w', dir]));
    if (reachable.code !== 0) {
      throw new UserError(
        `O utilizador ${SERVICE_USER} não chega a ${dir}: dê permissão de passagem (chmod o+x) às pastas acima.`,
      );
    }
  }
}

/**
 * The command line that runs `command` as the service user when we are root. setpriv rather than
 * runuser: it execs in place (no PAM session, no parent left waiting), so the process we spawn is
 * the node itself and its exit is seen directly.
 */
export function asServiceUser(command: string, args: string[]): [string, string[]] {
  if (!isRoot()) return [command, args];
  const user = ['--reuid', SERVICE_USER, '--regid', SERVICE_USER, '--init-groups'];
  return ['setpriv', [...user, '--', command, ...args]];
}
