/**
 * The end of each node's logs, for a failed start: CI output must show why the node did not come
 * up. Only what this start wrote is shown (the main log is appended to across restarts).
 */
import { existsSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { relative } from 'node:path';
import { type NodeLayout } from './layout.js';

const TAIL_LINES = 20;
/** Launcher and JVM noise printed on every start, never the cause of a failure. */
const NOISE = [/no-jdk distributions/, /^WARNING: /];

/** Where the main log ends now, so a later tail starts at this start's first line. */
export function logSize(node: NodeLayout): number {
  return existsSync(node.mainLog) ? statSync(node.mainLog).size : 0;
}

/** The console output (truncated at each launch) and the main log since `mainLogFrom`, per node. */
export async function logTails(nodes: { node: NodeLayout; mainLogFrom?: number }[]): Promise<string[]> {
  const lines: string[] = [];
  for (const { node, mainLogFrom = 0 } of nodes) {
    let wrote = false;
    for (const [file, from] of [
      [node.consoleLog, 0],
      [node.mainLog, mainLogFrom],
    ] as const) {
      const tail = (await tailLines(file, from)).filter((line) => !NOISE.some((noise) => noise.test(line)));
      if (!tail.length) continue;
      lines.push(`--- ${relative(process.cwd(), file)} (últimas linhas)`, ...tail);
      wrote = true;
    }
    if (!wrote)
      lines.push(
        `--- o nó ${node.index} ainda não escreveu nada em ${relative(process.cwd(), node.logsDir)}`,
      );
  }
  return lines;
}

/** The last lines after byte `from`, reading at most the last 64 KiB (a long-lived log grows). */
async function tailLines(path: string, from: number): Promise<string[]> {
  if (!existsSync(path)) return [];
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    // Smaller than at launch: log4j rolled the file over, so all of it is new.
    const start = Math.max(size < from ? 0 : from, size - 64 * 1024);
    const { buffer } = await file.read(Buffer.alloc(size - start), 0, size - start, start);
    const text = buffer.toString('utf8').trimEnd();
    return text ? text.split('\n').slice(-TAIL_LINES) : [];
  } finally {
    await file.close();
  }
}
