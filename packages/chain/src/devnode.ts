/**
 * The dev chain: a Hardhat 2 node (`hardhat node`, an in-process EVM with JSON-RPC over HTTP) run as a child
 * process, for local development, the demo and tests. Nothing is downloaded at run time: the node ships in the
 * `hardhat` npm package, a development dependency (hardhatBootstrap). Its configuration is devnode/hardhat.config.cjs
 * (chain id 31337, one empty block every `blockIntervalMs`, every transaction mined at once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hex } from 'viem';

/**
 * Hardhat's well-known dev account #0 (address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266), funded with
 * 10,000,000 ETH on every fresh dev chain. DEV ONLY: the key is published in Hardhat's docs and printed by every
 * `hardhat node`; anything sent to it on a real network is lost.
 */
export const DEV_FAUCET_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
/** The address of DEV_FAUCET_KEY (Hardhat account #0). */
export const DEV_FAUCET_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const;
/** The chain id of the dev chain (Hardhat's default). */
export const DEV_CHAIN_ID = 31337;

/** A running dev chain. */
export interface DevChain {
  /** JSON-RPC endpoint, e.g. http://127.0.0.1:8600 */
  rpcUrl: string;
  /** DEV_CHAIN_ID (31337) unless started with another */
  chainId: number;
  /** Hardhat's public dev key of account #0 (see DEV_FAUCET_KEY): dev only. */
  faucetKey: Hex;
  /** Kills the node and waits for it to exit; idempotent. */
  stop(): Promise<void>;
  /**
   * Freezes the node process (SIGSTOP) without losing its chain: JSON-RPC requests get no answer (they time out)
   * until resume(). For tests of "the node is unreachable during a withdrawal / deposits". No-op once stopped.
   */
  pause(): void;
  /** Lets a paused node run again (SIGCONT); it answers the requests that waited meanwhile. */
  resume(): void;
}

/** Options of startDevChain. */
export interface DevChainOptions {
  /** TCP port of the JSON-RPC server. */
  port: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** The chain id (default DEV_CHAIN_ID, 31337); each network of the demo gets its own (chains.ts DEV_CHAIN_IDS). */
  chainId?: number;
  /** One block every this many ms even without transactions (default 1000); 0 = only on transactions. */
  blockIntervalMs?: number;
  /** How long to wait for eth_blockNumber to answer (default 60,000 ms). */
  startTimeoutMs?: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const devnodeDir = path.join(here, '..', 'devnode');
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The child also exits when its stdin closes (devnode/parent-watch.cjs), which covers a parent killed hard.
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

async function blockNumber(rpcUrl: string): Promise<bigint | null> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(2000),
    });
    const body = (await res.json()) as { result?: string };
    return typeof body.result === 'string' ? BigInt(body.result) : null;
  } catch {
    return null;
  }
}

/**
 * The path of Hardhat's CLI entry. Hardhat is a development dependency of this package (a production install,
 * `npm ci --omit=dev`, leaves its 200 MB toolchain out): without it this throws an error that says so, and the
 * demo's start (apps/server main/server.ts) prints it and runs without its chain.
 */
export function hardhatBootstrap(resolve: (id: string) => string = createRequire(import.meta.url).resolve): string {
  let pkg: string;
  try {
    pkg = resolve('hardhat/package.json');
  } catch {
    throw new Error(
      'the dev chain needs the hardhat package, a development dependency of @exchange/chain that a production install (npm ci --omit=dev) leaves out: install with dev dependencies (npm ci) to run the demo chain, or set CHAIN_RPC_URL to a node',
    );
  }
  return path.join(path.dirname(pkg), 'internal', 'cli', 'bootstrap.js');
}

/**
 * Starts a Hardhat node on `host:port` and resolves once it answers eth_blockNumber. Rejects if the port answers
 * before the child is up (another process holds it), if the child exits early (its last output is in the error),
 * or after `startTimeoutMs`. The child is killed on `stop()` and when this process exits.
 */
export async function startDevChain(opts: DevChainOptions): Promise<DevChain> {
  const host = opts.host ?? '127.0.0.1';
  const rpcUrl = `http://${host}:${opts.port}`;
  const chainId = opts.chainId ?? DEV_CHAIN_ID;
  if (!Number.isSafeInteger(chainId) || chainId < 1) throw new RangeError(`startDevChain: chain id ${chainId}`);
  if ((await blockNumber(rpcUrl)) !== null) throw new Error(`startDevChain: ${rpcUrl} already answers JSON-RPC (port in use)`);
  const bootstrap = hardhatBootstrap();
  const child = spawn(
    process.execPath,
    [
      '-r',
      path.join(devnodeDir, 'parent-watch.cjs'),
      bootstrap,
      '--config',
      path.join(devnodeDir, 'hardhat.config.cjs'),
      'node',
      '--hostname',
      host,
      '--port',
      String(opts.port),
    ],
    {
      cwd: devnodeDir,
      env: {
        ...process.env,
        HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
        DEVCHAIN_BLOCK_INTERVAL_MS: String(opts.blockIntervalMs ?? 1000),
        DEVCHAIN_CHAIN_ID: String(chainId),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  installExitHook();
  // The node logs every RPC call; keep only the tail for error messages.
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      running.delete(child);
      resolve();
    });
  });

  const stop = async () => {
    if (!exited) {
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exitPromise;
      clearTimeout(timer);
    }
  };

  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) throw new Error(`startDevChain: hardhat node exited before answering on ${rpcUrl}:\n${tail}`);
    if ((await blockNumber(rpcUrl)) !== null) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`startDevChain: no answer on ${rpcUrl} within ${opts.startTimeoutMs ?? 60_000} ms:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    rpcUrl,
    chainId,
    faucetKey: DEV_FAUCET_KEY,
    stop,
    pause: () => {
      if (!exited) child.kill('SIGSTOP');
    },
    resume: () => {
      if (!exited) child.kill('SIGCONT');
    },
  };
}
