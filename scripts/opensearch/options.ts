/**
 * Checks the command-line values here rather than with commander's parsers, whose errors are in
 * English: each bad value gets one Portuguese line naming the option and what it accepts.
 */
import { MAX_NODES, MAX_PORT, MIN_PORT } from './layout.js';
import { UserError } from './user-error.js';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
    throw new UserError(
      `--port tem de ser um número entre ${MIN_PORT} e ${MAX_PORT} (recebido: "${value}").`,
    );
  }
  return port;
}

export function parseNodes(value: string): number {
  const nodes = Number(value);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > MAX_NODES) {
    throw new UserError(`--nodes tem de ser 1 ou ${MAX_NODES} (recebido: "${value}").`);
  }
  return nodes;
}

/**
 * 512m to 1g: below that the node is unreliable with the test indices, above it a CI runner
 * (and a second node) runs short of memory. Returns the JVM form, e.g. "768m".
 */
export function parseHeap(value: string): string {
  const match = /^(\d+)([mg])$/i.exec(value.trim());
  const megabytes = match ? Number(match[1]) * (match[2]!.toLowerCase() === 'g' ? 1024 : 1) : NaN;
  if (!(megabytes >= 512 && megabytes <= 1024)) {
    throw new UserError(
      `--heap tem de estar entre 512m e 1g, p. ex. 512m, 768m ou 1g (recebido: "${value}").`,
    );
  }
  return `${megabytes}m`;
}

export function parseTimeoutSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UserError(`--timeout tem de ser um número de segundos maior que 0 (recebido: "${value}").`);
  }
  return seconds;
}
