/** Runs a short-lived command and collects its output; a missing program is reported, not thrown. */
import { spawn } from 'node:child_process';

export interface CommandResult {
  /** null when the program could not be started (not installed). */
  code: number | null;
  output: string;
}

export function runCommand(command: string, args: string[], cwd?: string): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', () => resolve({ code: null, output: '' }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }));
  });
}
