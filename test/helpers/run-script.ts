import { spawn } from 'node:child_process';

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `tsx scripts/<name>` as a person would, with exactly the environment given on top of PATH. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', `scripts/${script}`, ...args], {
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
