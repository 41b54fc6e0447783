/**
 * Finds the JDK the node will run on. The integ-test zip bundles no JDK, so the launcher needs
 * OPENSEARCH_JAVA_HOME; we derive it from JAVA_HOME or the `java` on PATH and check its version
 * first, because the launcher's own error for a wrong Java is a stack trace.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OPENSEARCH_VERSION } from './layout.js';
import { runCommand } from './run-command.js';
import { UserError } from './user-error.js';

const MIN_JAVA = 17;
/** JDK 24 removed the Security Manager, which OpenSearch 2.x cannot start without. */
const MAX_JAVA = 23;

/** Returns the Java home to give the node. */
export async function findJavaHome(): Promise<string> {
  const fromEnv = process.env.JAVA_HOME;
  const java = fromEnv ? join(fromEnv, 'bin', 'java') : 'java';
  const { code, output } = await runCommand(java, ['-version']);
  if (code !== 0) {
    throw new UserError(
      `Java não encontrado (${java} -version falhou): instale o JDK ${MIN_JAVA} ou mais recente, ou defina JAVA_HOME.`,
    );
  }
  const major = javaMajor(output);
  if (major === undefined || major < MIN_JAVA || major > MAX_JAVA) {
    const found = major === undefined ? 'de versão desconhecida' : String(major);
    throw new UserError(
      `Java ${found} não serve: o OpenSearch ${OPENSEARCH_VERSION} precisa do JDK ${MIN_JAVA} a ${MAX_JAVA} (defina JAVA_HOME).`,
    );
  }
  if (fromEnv) return fromEnv;
  const onPath = await runCommand('sh', ['-c', 'command -v java']);
  // …/jdk/bin/java, usually behind /usr/bin/java → /etc/alternatives/java symlinks.
  return dirname(dirname(realpathSync(onPath.output.trim())));
}

/** `openjdk version "17.0.15" …` → 17; `"1.8.0_402"` → 8. */
function javaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(versionOutput);
  if (!match) return undefined;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2]) : first;
}
