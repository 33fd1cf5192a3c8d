/**
 * Proves that startDevChain brings up a real Hardhat node that answers JSON-RPC with chain id 31337, mines empty
 * blocks on its interval, refuses a port that is already served, and is gone after stop() and after its parent
 * process is killed with SIGKILL (no orphan left on the port); and that a production install without Hardhat (a
 * development dependency) gets an error that says so. Ports 8600 and 8603.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createChainClient } from './client';
import { DEV_FAUCET_ADDRESS, hardhatBootstrap, startDevChain, type DevChain } from './devnode';

const PORT = 8600;
let dev: DevChain | undefined;

afterAll(async () => {
  await dev?.stop();
});

describe('hardhatBootstrap', () => {
  it("finds Hardhat's CLI entry in a full install", () => {
    const entry = hardhatBootstrap();
    expect(entry.endsWith(path.join('hardhat', 'internal', 'cli', 'bootstrap.js'))).toBe(true);
    expect(fs.existsSync(entry)).toBe(true);
  });
  it('says what is missing when Hardhat is not installed (npm ci --omit=dev)', () => {
    const missing = (id: string): string => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => hardhatBootstrap(missing)).toThrow(
      'the dev chain needs the hardhat package, a development dependency of @exchange/chain that a production install (npm ci --omit=dev) leaves out: install with dev dependencies (npm ci) to run the demo chain, or set CHAIN_RPC_URL to a node',
    );
  });
});

describe('startDevChain', () => {
  it('answers on its port with chain id 31337 and the funded faucet account', async () => {
    dev = await startDevChain({ port: PORT, blockIntervalMs: 200 });
    expect(dev.rpcUrl).toBe(`http://127.0.0.1:${PORT}`);
    expect(dev.chainId).toBe(31337);
    const client = createChainClient(dev.rpcUrl);
    expect(await client.chainId()).toBe(31337);
    expect(await client.balance(DEV_FAUCET_ADDRESS)).toBe(10_000_000n * 10n ** 18n);
  });

  it('mines blocks on the interval without transactions, each on top of the last', async () => {
    const client = createChainClient(dev!.rpcUrl);
    const first = await client.head();
    await new Promise((r) => setTimeout(r, 1200));
    const later = await client.head();
    expect(later.number).toBeGreaterThanOrEqual(first.number + 3);
    const block = await client.block(later.number);
    const parent = await client.block(later.number - 1);
    expect(block?.parentHash).toBe(parent?.hash);
    expect(block?.transactions).toEqual([]);
    expect(await client.block(later.number + 1000)).toBeNull();
  });

  it('refuses to start on a port that already answers', async () => {
    await expect(startDevChain({ port: PORT })).rejects.toThrow(/already answers/);
  });

  it('stop() ends the node: the port no longer answers, and a second stop is harmless', async () => {
    await dev!.stop();
    await dev!.stop();
    await expect(createChainClient(dev!.rpcUrl).head()).rejects.toThrow();
    dev = undefined;
  });

  it('the node dies with its parent, even when the parent is killed with SIGKILL', async () => {
    const port = 8603;
    const script = `import { startDevChain } from ${JSON.stringify(path.join(import.meta.dirname, 'devnode.ts'))};
await startDevChain({ port: ${port} }); console.log('up'); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      parent.stdout.on('data', (d: Buffer) => d.toString().includes('up') && resolve());
      parent.once('exit', () => reject(new Error('parent exited before the node was up')));
    });
    const rpcUrl = `http://127.0.0.1:${port}`;
    expect(await createChainClient(rpcUrl).chainId()).toBe(31337);
    parent.kill('SIGKILL');
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      await new Promise((r) => setTimeout(r, 200));
      alive = await createChainClient(rpcUrl)
        .chainId()
        .then(
          () => true,
          () => false,
        );
    }
    expect(alive).toBe(false);
  });
});
