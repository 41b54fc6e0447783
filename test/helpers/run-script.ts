import { spawn } from 'node:child_process';

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `scripts/<name>` through tsx as `npm run` would, with exactly the environment given on top
 * of PATH. Node with tsx's loader directly, not through npx: npx's own start-up would be paid
 * again by every run of a test that runs a command several times.
 */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], {
      env: { ...base, ...env },
      stdio: 'pipe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
