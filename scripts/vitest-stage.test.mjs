// vitestStage (scripts/vitest-stage.mjs) against real Vitest runs of a fixture project in a temporary directory whose
// first test file kills its own worker process (SIGKILL, as a crash or the OOM killer would) once or every time.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vitestStage } from './vitest-stage.mjs';

let dir;
const marker = () => path.join(dir, 'died-once');

function fixture(files) {
  for (const f of fs.readdirSync(dir)) if (f.endsWith('.test.ts') || f === 'died-once') fs.rmSync(path.join(dir, f));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), body);
}

const DIES = (when) => `import fs from 'node:fs';
import { expect, it } from 'vitest';
it('one', () => expect(1).toBe(1));
it('dies', async () => {
  await new Promise((r) => setTimeout(r, 100));
  if (${when === 'always'} || !fs.existsSync(process.env.MARKER)) {
    fs.writeFileSync(process.env.MARKER, '');
    process.kill(process.pid, 'SIGKILL');
  }
});
it('after', () => expect(2).toBe(2));
`;
const PASSES = `import { expect, it } from 'vitest';\nit('b', () => expect(1).toBe(1));\n`;
const FAILS = `import { expect, it } from 'vitest';\nit('c', () => expect(1).toBe(2));\n`;

/** Runs the stage in the fixture directory; returns its status, the runs made and what it printed. */
async function stage() {
  const runs = [];
  const lines = [];
  const runner = async (label, args, env) => {
    runs.push(args.filter((a) => !a.startsWith('--reporter')));
    return spawnSync('npx', args, { cwd: dir, env: { ...env, MARKER: marker() }, encoding: 'utf8' }).status ?? 1;
  };
  const status = await vitestStage('fixture', ['vitest', 'run'], process.env, runner, (l) => lines.push(l));
  return { status, runs, log: lines.join('\n') };
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitest-stage-'));
  fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default { test: { name: 'fixture', pool: 'forks', include: ['*.test.ts'] } };\n`);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a Vitest stage and its dead workers', () => {
  it('a file whose worker died once is run again, alone, and the stage passes when it passes', async () => {
    fixture({ 'a.test.ts': DIES('once'), 'b.test.ts': PASSES });
    const { status, runs, log } = await stage();
    expect(status).toBe(0);
    expect(runs).toEqual([
      ['vitest', 'run'],
      ['vitest', 'run', '--project', 'fixture', path.join(fs.realpathSync(dir), 'a.test.ts')],
    ]);
    expect(log).toContain('Worker exited unexpectedly');
    expect(log).toContain(`[fixture] ${path.join(fs.realpathSync(dir), 'a.test.ts')} {"passed":1,"failed":0,"skipped":0,"pending":2}`);
  }, 60_000);

  it('a file whose worker dies every time fails the stage after one second run', async () => {
    fixture({ 'a.test.ts': DIES('always'), 'b.test.ts': PASSES });
    const { status, runs } = await stage();
    expect(status).not.toBe(0);
    expect(runs).toHaveLength(2);
  }, 60_000);

  it('a failed test fails the stage with no second run, even beside a dead worker', async () => {
    fixture({ 'a.test.ts': DIES('always'), 'c.test.ts': FAILS });
    const withDead = await stage();
    expect(withDead.status).not.toBe(0);
    expect(withDead.runs).toHaveLength(1);
    fixture({ 'b.test.ts': PASSES, 'c.test.ts': FAILS });
    const alone = await stage();
    expect(alone.status).not.toBe(0);
    expect(alone.runs).toHaveLength(1);
    expect(alone.log).toBe('');
  }, 60_000);
});
