/**
 * The chain side of the wallet: the deposit address book (every user's address derived from the account
 * xpub), the signer loaded from its seed file, the chain client, and what the console and the demo ask of the chain:
 * the deposit monitor, alerts, the hot wallet against user liabilities, on-chain reserves, demo deposits.
 *
 * The watcher (chain-watcher.ts) and the withdrawal broadcaster (withdrawal-broadcaster.ts) run on top of this service
 * when CHAIN_JOBS is on (chain-jobs.ts). In the embedded demo, server.ts first starts a dev chain (startDemoChain) and
 * points the configuration at it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createPublicClient, createWalletClient, defineChain, encodeFunctionData, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { FastifyBaseLogger } from 'fastify';
import type { AdminDeposit as AdminDepositT, DepositRecord as DepositRecordT } from '@exchange/api';
import type { Static } from '@sinclair/typebox';
import type { ChainAlert, HotWalletRow } from '@exchange/api';
import { ACCOUNT_KINDS, formatDecimal } from '@exchange/core';
import {
  createChainClient,
  createSigner,
  DEV_CHAIN_ID,
  DEV_FAUCET_KEY,
  depositAddress as deriveAddress,
  depositXpubFromSeed,
  TOKEN_ABI,
  newWalletSeed,
  prepareDemoChain,
  startDevChain,
  type Address,
  type ChainClient,
  type DevChain,
  type Signer,
} from '@exchange/chain';
import type { Config } from '../../platform/config/env';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { adminListDeposits, chainHead, depositAddressesUsed, listAlerts, type DepositRow, type DepositState } from './chain.repository';
import { chainToEngine, createWalletCatalogue, engineToChain, ENGINE_SCALE, EVM_CHAIN, type WalletCatalogue } from './chains';
import { checkWalletIdentity, seedCreationRefusal, walletFingerprint } from './wallet-identity';

/** A coin the watcher and the broadcaster move on the EVM chain. */
export interface ChainCoin {
  coin: string;
  /** the ERC-20 contract, null for the native coin */
  token: Address | null;
  /** decimals on chain (18 ETH, 6 USDT) */
  chainDecimals: number;
  /** engine units: a deposit below it is recorded BELOW_MINIMUM, not credited */
  minDeposit: bigint;
}

/**
 * Every registered user's deposit address (m/44'/60'/0'/0/{userId} under the xpub), in both directions, kept up to
 * date as users register (the engine's userRegistered events). Addresses are EIP-55; lookups take any case.
 * A derivation costs a few milliseconds of elliptic-curve work. With `eager` (a process that watches the chain) the
 * users' addresses are derived in the background in small batches (the event loop keeps serving) and `ready()`
 * resolves once every known user is derived (the watcher waits for it before each scan, so no deposit to a user's
 * address is passed over); otherwise only when asked. `userOf` is always exact: it first derives whatever is pending.
 */
export interface DepositAddressBook {
  /** The user's address (derived now if not yet; throws RangeError for a non-numeric id). */
  addressOf(userId: string): Address;
  /** The owner of `address` (any case), or undefined; derives the pending users' addresses first (synchronously). */
  userOf(address: string): string | undefined;
  /** Resolves once every user registered so far has its address derived. */
  ready(): Promise<void>;
  /** How many addresses are known. */
  readonly size: number;
  /** Stops following registrations. */
  close(): void;
}

/** Derivations per background batch, between two turns of the event loop. */
const DERIVE_BATCH = 20;

/** Builds the address book from the engine's users and follows new registrations. */
export function createDepositAddressBook(host: Pick<EnginePort, 'engine' | 'onEvents'>, xpub: string, opts: { eager?: boolean } = {}): DepositAddressBook {
  let eager = opts.eager ?? true;
  const byAddress = new Map<string, string>();
  const byUser = new Map<string, Address>();
  const queue: string[] = [];
  let waiters: Array<() => void> = [];
  let pumping = false;
  let closed = false;
  const isUserId = (id: string) => /^[0-9]{1,10}$/.test(id);
  const add = (userId: string): Address => {
    const known = byUser.get(userId);
    if (known) return known;
    if (!isUserId(userId)) throw new RangeError(`not a user id: ${userId}`);
    const a = deriveAddress(xpub, Number(userId));
    byUser.set(userId, a);
    byAddress.set(a.toLowerCase(), userId);
    return a;
  };
  const pump = (): void => {
    if (pumping || closed) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      if (closed) return;
      for (let i = 0; i < DERIVE_BATCH && queue.length > 0; i++) add(queue.shift()!);
      if (queue.length > 0) pump();
      else {
        const w = waiters;
        waiters = [];
        for (const r of w) r();
      }
    });
  };
  const enqueue = (userId: string): void => {
    if (!isUserId(userId) || byUser.has(userId)) return;
    queue.push(userId);
    if (eager) pump();
  };
  for (const [userId] of host.engine.userRows()) enqueue(userId);
  const off = host.onEvents((events) => {
    for (const ev of events) if (ev.type === 'userRegistered') enqueue(ev.userId);
  });
  return {
    addressOf: add,
    userOf(address) {
      while (queue.length > 0) add(queue.shift()!);
      return byAddress.get(address.toLowerCase());
    },
    ready() {
      if (queue.length === 0) return Promise.resolve();
      eager = true;
      pump();
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    get size() {
      return byAddress.size;
    },
    close() {
      closed = true;
      off();
      const w = waiters;
      waiters = [];
      for (const r of w) r();
    },
  };
}

/**
 * The signer's seed (32 bytes, base64 in the file), created with mode 0600 at first start when absent (exclusive
 * create: two processes never make two seeds). Losing it loses the hot wallet and every deposit address' key.
 * `refusal` says why a missing seed must not be created (wallet-identity.ts seedCreationRefusal): then it throws that.
 */
export function loadOrCreateSignerSeed(file: string, refusal: () => string | null = () => null): Uint8Array {
  if (!fs.existsSync(file)) {
    const why = refusal();
    if (why !== null) throw new Error(why);
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${Buffer.from(newWalletSeed()).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const seed = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (seed.length !== 32) throw new Error(`SIGNER_SEED_FILE ${file} must hold base64 of 32 bytes`);
  return new Uint8Array(seed);
}

/** The dev chain of the embedded demo, prepared, and the configuration pointing at it. */
export interface DemoChain {
  devChain: DevChain;
  /** `config` with chainRpcUrl, chainId and chainUsdtContract of the dev chain */
  config: Config;
  usdt: Address;
  stop(): Promise<void>;
}

/**
 * Demo start (server.ts, and tests): starts the dev chain on config.devChainPort, deploys USDT and funds the hot wallet
 * of the signer seed (prepareDemoChain), and answers the configuration pointing at it. The caller stops it.
 */
export async function startDemoChain(config: Config, opts: { blockIntervalMs?: number } = {}): Promise<DemoChain> {
  const devChain = await startDevChain({ port: config.devChainPort, ...(opts.blockIntervalMs !== undefined ? { blockIntervalMs: opts.blockIntervalMs } : {}) });
  try {
    // before the engine starts: a data directory with a journal has run, and its seed is never replaced silently
    const journalDir = path.join(config.dataDir, 'journal');
    const hasRun = fs.existsSync(journalDir) && fs.readdirSync(journalDir).length > 0;
    const refusal = () =>
      hasRun
        ? `SIGNER_SEED_FILE ${config.signerSeedFile} is missing, but ${config.dataDir} has a journal: the demo's deposit addresses and hot wallet come from that seed. Restore it, or start on an empty DATA_DIR.`
        : null;
    const signer = createSigner(loadOrCreateSignerSeed(config.signerSeedFile, refusal), devChain.chainId);
    const { usdt } = await prepareDemoChain(devChain, signer.hotWalletAddress);
    return {
      devChain,
      usdt,
      config: { ...config, chainRpcUrl: devChain.rpcUrl, chainId: devChain.chainId, chainUsdtContract: usdt },
      stop: () => devChain.stop(),
    };
  } catch (err) {
    await devChain.stop();
    throw err;
  }
}

/**
 * DEV ONLY: the dev chain's faucet (Hardhat account #0) pays `amount` chain units of ETH (token null) or of the token to
 * `to` and waits for the receipt; answers the hash. The priority fee carries a random number of wei: a dev chain
 * restarted from genesis replays the faucet's nonces, and the same payment must not get the hash of a payment of an
 * earlier chain (the engine credits a (chain, tx hash, log index) once for ever).
 */
export async function payFromDevFaucet(rpcUrl: string, chainId: number, to: Address, token: Address | null, amount: bigint): Promise<string> {
  const chain = defineChain({
    id: chainId,
    name: 'dev chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0, timeout: 10_000 });
  const pub = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ account: privateKeyToAccount(DEV_FAUCET_KEY), chain, transport });
  const fees = await pub.estimateFeesPerGas();
  const jitter = BigInt(crypto.randomInt(1, 1_000_000_000));
  const tip = fees.maxPriorityFeePerGas + jitter;
  const common = { maxPriorityFeePerGas: tip, maxFeePerGas: fees.maxFeePerGas + jitter };
  const hash =
    token === null
      ? await wallet.sendTransaction({ to, value: amount, ...common })
      : await wallet.sendTransaction({ to: token, data: encodeFunctionData({ abi: TOKEN_ABI, functionName: 'transfer', args: [to, amount] }), ...common });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 100, timeout: 30_000 });
  if (receipt.status !== 'success') throw new Error(`faucet payment ${hash} reverted`);
  return hash;
}

/** Demo deposit limits per request, engine units: 10000 USDT, 10 ETH. */
export const DEMO_DEPOSIT_MAX: Readonly<Record<string, bigint>> = { USDT: 10_000n * 10n ** 8n, ETH: 10n * 10n ** 8n };

/** What the service needs. */
export interface ChainServiceDeps {
  config: Config;
  db: Db;
  host: Pick<EnginePort, 'engine' | 'onEvents' | 'submit'>;
  log: FastifyBaseLogger;
  /** a chain client to use instead of one over config.chainRpcUrl (tests: a node that fails on purpose) */
  client?: ChainClient;
}

/** The chain side of the wallet; ctx.chain. */
export interface ChainService {
  /** network code, "ETH" */
  readonly chain: string;
  /** the deposit account xpub (WALLET_XPUB, or the signer's) */
  readonly xpub: string;
  /** the hot wallet (EIP-55), null in a gateway without the signer */
  readonly hotWalletAddress: Address | null;
  /** the signer, only where CHAIN_JOBS runs (or no WALLET_XPUB is configured) */
  readonly signer: Signer | null;
  /** the chain client, null without a node (no CHAIN_RPC_URL and no dev chain) */
  readonly client: ChainClient | null;
  readonly catalogue: WalletCatalogue;
  readonly addresses: DepositAddressBook;
  /** Settles once the journal holds the wallet's identity (rejects when it could not be recorded; already logged). */
  readonly identityRecorded: Promise<void>;
  /** The EVM coins with a contract known (ETH always; USDT when its contract is configured). */
  coins(): ChainCoin[];
  /** The user's deposit address (EIP-55). */
  depositAddress(userId: string): Address;
  /** True when `address` (any case) is one of our users' deposit addresses. */
  isDepositAddress(address: string): boolean;
  /** True when the demo deposit is offered: demo mode on a dev chain (chain id 31337) with a node. */
  readonly demoDepositEnabled: boolean;
  /** Demo: the dev chain's faucet pays `amount` (engine units) of `coin` to the user's deposit address (payFromDevFaucet). */
  demoDeposit(userId: string, coin: string, amount: bigint): Promise<{ txHash: string }>;
  /** The newest followed block number (confirmations are counted against it; 0 before the watcher ran). */
  head(): Promise<number>;
  /** A deposit row as the capital records show it, against the followed head `head`. */
  depositRecord(row: DepositRow, head: number): DepositRecordT;
  /** The console's deposit monitor page. */
  adminDeposits(q: { status?: DepositState | undefined; page: number; pageSize: number }): Promise<{ total: number; list: Static<typeof AdminDepositT>[] }>;
  /** The newest 200 chain alerts. */
  alerts(): Promise<Static<typeof ChainAlert>[]>;
  /** Per coin: hot wallet and deposit address balances on chain against user liabilities in the engine. */
  hotWallet(): Promise<Static<typeof HotWalletRow>[]>;
  /** Per coin, engine units: what the exchange's addresses (hot wallet and used deposit addresses) hold on chain. */
  onChainReserves(): Promise<Map<string, bigint>>;
  close(): void;
}

/** Builds the chain service from the configuration (the signer seed file is read or created unless WALLET_XPUB is given to a gateway without CHAIN_JOBS). */
export function createChainService(deps: ChainServiceDeps): ChainService {
  const { config, db, host } = deps;
  const needSigner = config.walletXpub === undefined || config.chainJobs;
  const refusal = () => seedCreationRefusal(config.signerSeedFile, host.engine);
  const signer = needSigner ? createSigner(loadOrCreateSignerSeed(config.signerSeedFile, refusal), config.chainId) : null;
  const xpub = config.walletXpub ?? (signer ? signer.depositXpub : depositXpubFromSeed(loadOrCreateSignerSeed(config.signerSeedFile, refusal)));
  // the journal's recorded wallet (wallet-identity.ts): a start on another seed or xpub is refused
  checkWalletIdentity(host.engine, xpub, config.walletXpub !== undefined ? 'WALLET_XPUB' : `SIGNER_SEED_FILE ${config.signerSeedFile}`);
  const client = deps.client ?? (config.chainRpcUrl ? createChainClient(config.chainRpcUrl) : null);
  // Recorded once, by the process that runs the chain jobs against a node (the one holding the signer).
  const identityRecorded: Promise<void> =
    client !== null && config.chainJobs && host.engine.walletIdentity() === null
      ? host.submit({ type: 'walletIdentity', xpubFingerprint: walletFingerprint(xpub) }).then((r) => {
          if (r.code !== 'ok') throw new Error(`recording the wallet's identity: ${r.code}`);
        })
      : Promise.resolve();
  identityRecorded.catch((err: unknown) => deps.log.error({ err }, "the wallet's identity was not recorded in the journal"));
  const catalogue = createWalletCatalogue(config);
  // Derived ahead only where the chain is watched; elsewhere on demand (a withdrawal's address check).
  const addresses = createDepositAddressBook(host, xpub, { eager: client !== null && config.chainJobs });
  const chain = EVM_CHAIN;
  const demoDepositEnabled = config.demoMode && client !== null && config.chainId === DEV_CHAIN_ID && config.chainRpcUrl !== undefined;

  let faucetQueue: Promise<void> = Promise.resolve();
  const coins = (): ChainCoin[] =>
    catalogue
      .evmRules()
      .filter((r) => r.available)
      .map((r) => ({ coin: r.coin, token: r.contract === '' ? null : (r.contract as Address), chainDecimals: r.chainDecimals, minDeposit: r.minDeposit }));

  const depositRecord = (row: DepositRow, head: number): DepositRecordT => {
    const required = config.chainConfirmations;
    const seen = row.status === 'CREDITED' ? required : row.status === 'ORPHANED' ? 0 : Math.max(0, Math.min(required, head - row.blockNumber + 1));
    return {
      id: String(row.id),
      coin: row.coin,
      chain: row.chain,
      amount: formatDecimal(BigInt(row.amount), ENGINE_SCALE),
      status: row.status as DepositState,
      address: row.toAddress,
      fromAddress: row.fromAddress,
      txHash: row.txHash,
      blockNumber: row.blockNumber,
      confirmations: seen,
      confirmationsRequired: required,
      createdAt: row.createdAt.getTime(),
      creditedAt: row.creditedAt ? row.creditedAt.getTime() : 0,
      explorerUrl: catalogue.txUrl(row.txHash),
    };
  };

  /** Balances of `addresses` for `c`, summed in chain units (sequential: the node is asked one address at a time). */
  async function chainBalance(c: ChainCoin, addrs: readonly Address[]): Promise<bigint> {
    let sum = 0n;
    for (const a of addrs) sum += c.token === null ? await client!.balance(a) : await client!.tokenBalance(c.token, a);
    return sum;
  }

  async function usedDepositAddresses(): Promise<Address[]> {
    return (await depositAddressesUsed(db, chain)).filter((a): a is Address => /^0x[0-9a-fA-F]{40}$/.test(a)) as Address[];
  }

  /** The user's e-mail or phone as the console shows it ('' for an unknown user). */
  function accountOf(userId: string): string {
    const p = host.engine.user(userId)?.profile;
    return p?.mail || p?.phone || '';
  }

  /** Every user's balance of `coin` over the four accounts (available + frozen), engine units. */
  function liabilities(coin: string): bigint {
    let sum = 0n;
    for (const [userId] of host.engine.userRows()) {
      for (const kind of ACCOUNT_KINDS) {
        const b = host.engine.balance(userId, kind, coin);
        sum += b.available + b.frozen;
      }
    }
    return sum;
  }

  return {
    chain,
    xpub,
    identityRecorded,
    hotWalletAddress: signer?.hotWalletAddress ?? null,
    signer,
    client,
    catalogue,
    addresses,
    coins,
    depositAddress: (userId) => addresses.addressOf(userId),
    isDepositAddress: (address) => addresses.userOf(address) !== undefined,
    demoDepositEnabled,
    async demoDeposit(userId, coin, amount) {
      if (!demoDepositEnabled || client === null || config.chainRpcUrl === undefined) throw new AppError('not_found', 404);
      const c = coins().find((x) => x.coin === coin);
      const max = DEMO_DEPOSIT_MAX[coin];
      if (!c || max === undefined) throw new AppError('chain_not_available', 400, 'coin');
      if (amount <= 0n) throw new AppError('amount_invalid', 400, 'amount');
      if (amount > max) throw new AppError('amount_above_maximum', 400, 'amount');
      let chainAmount: bigint;
      try {
        chainAmount = engineToChain(amount, c.chainDecimals);
      } catch {
        throw new AppError('amount_invalid', 400, 'amount');
      }
      const to = addresses.addressOf(userId);
      const rpcUrl = config.chainRpcUrl;
      // One faucet payment at a time: concurrent ones would take the same faucet nonce.
      const paid = faucetQueue.then(() => payFromDevFaucet(rpcUrl, config.chainId, to, c.token, chainAmount));
      faucetQueue = paid.then(
        () => undefined,
        () => undefined,
      );
      try {
        const txHash = await paid;
        return { txHash };
      } catch (err) {
        deps.log.warn({ err, userId, coin }, 'demo deposit failed');
        throw new AppError('chain_node_unavailable', 503);
      }
    },
    head: () => chainHead(db, chain),
    depositRecord,
    async adminDeposits(q) {
      const { rows, total } = await adminListDeposits(db, { status: q.status, limit: q.pageSize, offset: (q.page - 1) * q.pageSize });
      const head = await chainHead(db, chain);
      return {
        total,
        list: rows.map((r) => ({ ...depositRecord(r, head), userId: String(r.userId), account: accountOf(String(r.userId)) })),
      };
    },
    async alerts() {
      return (await listAlerts(db, 200)).map((a) => ({ id: String(a.id), chain: a.chain, kind: a.kind, message: a.message, createdAt: a.createdAt.getTime() }));
    },
    async hotWallet() {
      const hot = signer?.hotWalletAddress ?? null;
      const used = client ? await usedDepositAddresses() : [];
      const rows: Static<typeof HotWalletRow>[] = [];
      for (const c of coins()) {
        const hotUnits = client && hot ? chainToEngine(await chainBalance(c, [hot]), c.chainDecimals).units : null;
        const depUnits = client ? chainToEngine(await chainBalance(c, used), c.chainDecimals).units : null;
        rows.push({
          chain,
          coin: c.coin,
          hotWalletAddress: hot ?? '',
          hotWallet: hotUnits === null ? '' : formatDecimal(hotUnits, ENGINE_SCALE),
          depositAddresses: depUnits === null ? '' : formatDecimal(depUnits, ENGINE_SCALE),
          liabilities: formatDecimal(liabilities(c.coin), ENGINE_SCALE),
        });
      }
      return rows;
    },
    async onChainReserves() {
      const out = new Map<string, bigint>();
      if (!client) return out;
      const addrs = [...(signer ? [signer.hotWalletAddress] : []), ...(await usedDepositAddresses())];
      for (const c of coins()) out.set(c.coin, chainToEngine(await chainBalance(c, addrs), c.chainDecimals).units);
      return out;
    },
    close() {
      addresses.close();
    },
  };
}
