/**
 * The data directory's lock (data-dir-lock.ts) with real processes: a live holder refuses a second one and names its
 * pid; a holder killed with SIGKILL leaves a stale lock that is taken over; this process's own lock is taken over
 * and released only by its latest taker.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, dataDirHolder, LOCK_FILE } from './data-dir-lock';

const made: string[] = [];
function tmp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-test-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** A child process that writes a lock file naming itself into `dir`, then sleeps; resolves once the file is there. */
async function holder(dir: string): Promise<{ pid: number; kill(): Promise<void> }> {
  const script = `require('fs').writeFileSync(${JSON.stringify(path.join(dir, LOCK_FILE))}, JSON.stringify({ pid: process.pid, hostname: require('os').hostname(), since: 'x' })); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !fs.existsSync(path.join(dir, LOCK_FILE)); i++) await new Promise((r) => setTimeout(r, 25));
  return {
    pid: child.pid!,
    kill: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('data directory lock', () => {
  it('refuses while another live process holds it; takes over once that process is killed', async () => {
    const dir = tmp();
    const h = await holder(dir);
    try {
      expect(dataDirHolder(dir)).toMatchObject({ pid: h.pid, hostname: os.hostname() });
      expect(() => acquireDataDirLock(dir)).toThrow(`is in use by another server (pid ${h.pid} on ${os.hostname()}`);
    } finally {
      await h.kill();
    }
    expect(dataDirHolder(dir)).toBeNull();
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it("this process's own lock is taken over, and only the latest taker's release removes it", () => {
    const dir = tmp();
    const first = acquireDataDirLock(dir);
    const second = acquireDataDirLock(dir);
    first.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);
    expect(dataDirHolder(dir)).toBeNull();
    second.release();
    second.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
