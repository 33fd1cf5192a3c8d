/**
 * Proves that the committed artifacts/TetherToken.json is what solc-js 0.8.26 makes of contracts/TetherToken.sol
 * today (scripts/compile.mjs --check recompiles and compares), so the deployed bytecode matches the source.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the USDT artifact', () => {
  it('matches a fresh compile of the contract source', () => {
    const r = spawnSync(process.execPath, [path.join(import.meta.dirname, '..', 'scripts', 'compile.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
