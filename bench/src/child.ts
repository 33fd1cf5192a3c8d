/** Running the benchmark's helper scripts as child processes (tsx loader, repository root as cwd). */
import { spawn, type ChildProcess } from 'node:child_process';
import { REPO_ROOT } from './data/paths';
import { RESULT_PREFIX } from './replay/common';

/** Start `node --import tsx <script> ...args` with extra env; stdout/stderr are piped. */
export function spawnTs(script: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Run a helper script to completion and return the JSON it printed after RESULT_PREFIX.
 * Rejects with the tail of stderr if it exits non-zero or prints no result.
 */
export function runTsForResult(script: string, args: string[], nodeFlags: string[] = []): Promise<Record<string, number | string>> {
  return new Promise((resolve, reject) => {
    const child = spawnTs(script, args, {}, nodeFlags);
    let out = '';
    let err = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code !== 0 || line === undefined) reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`));
      else resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as Record<string, number | string>);
    });
  });
}
