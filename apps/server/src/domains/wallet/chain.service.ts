/**
 * The chain side of the wallet: the deposit address book (every user's address derived from the account
 * xpub: the same address on every EVM network, as on Binance), per network (chains.ts: Ethereum, BNB Smart Chain,
 * Arbitrum One, Polygon) its signer (one seed, the network's chain id) and chain client, and what the console and the
 * demo ask of the chains: the deposit monitor, alerts, the hot wallet against user liabilities, on-chain reserves per
 * network and in total, demo deposits.
 *
 * A watcher (chain-watcher.ts) and a withdrawal broadcaster (withdrawal-broadcaster.ts) per network run on top of this
 * service when CHAIN_JOBS is on (chain-jobs.ts). In the embedded demo, server.ts first starts a dev chain per network
 * (startDemoChain) and points the configuration at them.
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
import {
  chainToEngine,
  createWalletCatalogue,
  engineToChain,
  ENGINE_SCALE,
  EVM_CHAIN,
  isDevChainId,
  networksOf,
  usdtDecimalsOf,
  type WalletCatalogue,
} from './chains';

/** The demo's rule for a process without a dev chain (chains.ts), for the server's start, which loads this module lazily. */
export { withoutDevChain } from './chains';
import { checkWalletIdentity, seedCreationRefusal, walletFingerprint } from './wallet-identity';

/** A coin the watcher and the broadcaster move on an EVM network. */
export interface ChainCoin {
  coin: string;
  /** the ERC-20 contract, null for the native coin */
  token: Address | null;
  /** decimals on chain (18 ETH, 6 USDT; 18 USDT on BNB Smart Chain) */
  chainDecimals: number;
  /** engine units: a deposit below it is recorded BELOW_MINIMUM, not credited */
  minDeposit: bigint;
}

/** One EVM network as the chain service runs it. */
export interface ChainNetwork {
  /** network code: ETH, BSC, ARBITRUM, MATIC */
  readonly code: string;
  /** the chain id its signer signs for */
  readonly chainId: number;
  /** blocks a deposit or a withdrawal waits */
  readonly confirmations: number;
  /** where its watcher starts without a cursor */
  readonly startBlock: number;
  /** its signer (the one seed, this chain id), only where CHAIN_JOBS runs (or no WALLET_XPUB is configured) */
  readonly signer: Signer | null;
  /** its chain client, null without a node */
  readonly client: ChainClient | null;
  /** True when the demo deposit is offered on it: demo mode on a dev chain with a node. */
  readonly demoDepositEnabled: boolean;
  /** Its coins with a contract known (ETH on Ethereum always; USDT where its contract is configured). */
  coins(): ChainCoin[];
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

/** The dev chains of the embedded demo, prepared, and the configuration pointing at them. */
export interface DemoChain {
  /** Ethereum's dev chain */
  devChain: DevChain;
  /** every network's dev chain by network code (ETH first) */
  devChains: ReadonlyMap<string, DevChain>;
  /** `config` with the RPC URL, chain id and USDT contract of each network's dev chain */
  config: Config;
  /** Ethereum's USDT token */
  usdt: Address;
  stop(): Promise<void>;
}

/**
 * Demo start (server.ts, and tests): starts a dev chain per configured network without a node (Ethereum on
 * config.devChainPort, each other network on its own port with its own dev chain id), deploys USDT with that
 * network's decimals and funds the hot wallet of the signer seed (prepareDemoChain), in parallel, and answers the
 * configuration pointing at them. The caller stops them; a failure stops those already started and throws.
 */
export async function startDemoChain(config: Config, opts: { blockIntervalMs?: number } = {}): Promise<DemoChain> {
  // before the engine starts: a data directory with a journal has run, and its seed is never replaced silently
  const journalDir = path.join(config.dataDir, 'journal');
  const hasRun = fs.existsSync(journalDir) && fs.readdirSync(journalDir).length > 0;
  const refusal = () =>
    hasRun
      ? `SIGNER_SEED_FILE ${config.signerSeedFile} is missing, but ${config.dataDir} has a journal: the demo's deposit addresses and hot wallet come from that seed. Restore it, or start on an empty DATA_DIR.`
      : null;
  const seed = loadOrCreateSignerSeed(config.signerSeedFile, refusal);
  const wanted = networksOf(config).filter((n) => n.code === EVM_CHAIN || (n.rpcUrl === undefined && n.devChainPort > 0));
  const started = new Map<string, DevChain>();
  const stopAll = () => Promise.all([...started.values()].map((c) => c.stop())).then(() => undefined);
  const settled = await Promise.allSettled(
    wanted.map(async (n) => {
      const devChain = await startDevChain({
        port: n.devChainPort,
        chainId: n.chainId,
        ...(opts.blockIntervalMs !== undefined ? { blockIntervalMs: opts.blockIntervalMs } : {}),
      });
      started.set(n.code, devChain);
      const signer = createSigner(seed, devChain.chainId);
      const { usdt } = await prepareDemoChain(devChain, signer.hotWalletAddress, usdtDecimalsOf(n.code));
      return { code: n.code, devChain, usdt };
    }),
  );
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    // every start has settled: none is left running behind this error
    await stopAll();
    throw failed.reason;
  }
  const prepared = settled.map((r) => (r as PromiseFulfilledResult<{ code: string; devChain: DevChain; usdt: Address }>).value);
  {
    const eth = prepared.find((p) => p.code === EVM_CHAIN)!;
    const extra = new Map(prepared.filter((p) => p.code !== EVM_CHAIN).map((p) => [p.code, p]));
    return {
      devChain: eth.devChain,
      devChains: new Map(prepared.map((p) => [p.code, p.devChain])),
      usdt: eth.usdt,
      config: {
        ...config,
        chainRpcUrl: eth.devChain.rpcUrl,
        chainId: eth.devChain.chainId,
        chainUsdtContract: eth.usdt,
        extraNetworks: config.extraNetworks.map((n) => {
          const p = extra.get(n.code);
          return p ? { ...n, rpcUrl: p.devChain.rpcUrl, chainId: p.devChain.chainId, usdtContract: p.usdt } : n;
        }),
      },
      stop: stopAll,
    };
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
  /** every configured network, Ethereum first */
  readonly networks: readonly ChainNetwork[];
  /** The network `code`, or undefined when it is not configured. */
  network(code: string): ChainNetwork | undefined;
  /** the deposit account xpub (WALLET_XPUB, or the signer's) */
  readonly xpub: string;
  /** the hot wallet (EIP-55; the same address on every network), null in a gateway without the signer */
  readonly hotWalletAddress: Address | null;
  readonly catalogue: WalletCatalogue;
  readonly addresses: DepositAddressBook;
  /** Settles once the journal holds the wallet's identity (rejects when it could not be recorded; already logged). */
  readonly identityRecorded: Promise<void>;
  /** The user's deposit address (EIP-55), the same on every network. */
  depositAddress(userId: string): Address;
  /** True when `address` (any case) is one of our users' deposit addresses. */
  isDepositAddress(address: string): boolean;
  /** True when the demo deposit is offered on at least one network. */
  readonly demoDepositEnabled: boolean;
  /**
   * Demo: network `chain`'s dev chain faucet pays `amount` (engine units) of `coin` to the user's deposit address
   * (payFromDevFaucet). Throws not_found (404) where no network offers it, chain_not_available (400) for a coin or
   * network without it, amount_invalid / amount_above_maximum (400), chain_node_unavailable (503).
   */
  demoDeposit(userId: string, coin: string, amount: bigint, chain?: string): Promise<{ txHash: string }>;
  /** Network `chain`'s newest followed block number (confirmations are counted against it; 0 before its watcher ran). */
  head(chain: string): Promise<number>;
  /** A deposit row as the capital records show it, against its network's followed head `head`. */
  depositRecord(row: DepositRow, head: number): DepositRecordT;
  /** Deposit rows as the capital records show them, each against its own network's followed head (read once per network). */
  depositRecords(rows: readonly DepositRow[]): Promise<DepositRecordT[]>;
  /** The console's deposit monitor page (every network). */
  adminDeposits(q: { status?: DepositState | undefined; page: number; pageSize: number }): Promise<{ total: number; list: Static<typeof AdminDepositT>[] }>;
  /** The newest 200 chain alerts (every network). */
  alerts(): Promise<Static<typeof ChainAlert>[]>;
  /** Per network and coin: hot wallet and deposit address balances on chain against user liabilities in the engine. */
  hotWallet(): Promise<Static<typeof HotWalletRow>[]>;
  /**
   * Per network and coin, engine units: what the exchange's addresses (hot wallet and used deposit addresses) hold on
   * chain (network code -> coin -> units; a network without a node is absent). The per-coin totals are the proof of
   * reserves' (reserves.service.ts sumOverNetworks).
   */
  onChainReservesByNetwork(): Promise<Map<string, Map<string, bigint>>>;
  close(): void;
}

/** Builds the chain service from the configuration (the signer seed file is read or created unless WALLET_XPUB is given to a gateway without CHAIN_JOBS). */
export function createChainService(deps: ChainServiceDeps): ChainService {
  const { config, db, host } = deps;
  const needSigner = config.walletXpub === undefined || config.chainJobs;
  const refusal = () => seedCreationRefusal(config.signerSeedFile, host.engine);
  const seed = needSigner ? loadOrCreateSignerSeed(config.signerSeedFile, refusal) : null;
  const settings = networksOf(config);
  const signers = new Map(settings.map((n) => [n.code, seed ? createSigner(seed, n.chainId) : null]));
  const first = signers.get(EVM_CHAIN) ?? null;
  const xpub = config.walletXpub ?? (first ? first.depositXpub : depositXpubFromSeed(loadOrCreateSignerSeed(config.signerSeedFile, refusal)));
  // the journal's recorded wallet (wallet-identity.ts): a start on another seed or xpub is refused
  checkWalletIdentity(host.engine, xpub, config.walletXpub !== undefined ? 'WALLET_XPUB' : `SIGNER_SEED_FILE ${config.signerSeedFile}`);
  const catalogue = createWalletCatalogue(config);
  const networks: ChainNetwork[] = settings.map((n) => {
    const client = n.code === EVM_CHAIN && deps.client ? deps.client : n.rpcUrl ? createChainClient(n.rpcUrl) : null;
    const signer = signers.get(n.code) ?? null;
    return {
      code: n.code,
      chainId: n.chainId,
      confirmations: n.confirmations,
      startBlock: n.startBlock,
      signer,
      client,
      demoDepositEnabled: config.demoMode && client !== null && isDevChainId(n.chainId) && n.rpcUrl !== undefined,
      coins: () =>
        catalogue
          .networkRules(n.code)
          .filter((r) => r.available)
          .map((r) => ({ coin: r.coin, token: r.contract === '' ? null : (r.contract as Address), chainDecimals: r.chainDecimals, minDeposit: r.minDeposit })),
    };
  });
  const byCode = new Map(networks.map((n) => [n.code, n]));
  const rpcUrls = new Map(settings.map((n) => [n.code, n.rpcUrl]));
  const watched = networks.some((n) => n.client !== null);
  // Recorded once, by the process that runs the chain jobs against a node (the one holding the signer).
  const identityRecorded: Promise<void> =
    watched && config.chainJobs && host.engine.walletIdentity() === null
      ? host.submit({ type: 'walletIdentity', xpubFingerprint: walletFingerprint(xpub) }).then((r) => {
          if (r.code !== 'ok') throw new Error(`recording the wallet's identity: ${r.code}`);
        })
      : Promise.resolve();
  identityRecorded.catch((err: unknown) => deps.log.error({ err }, "the wallet's identity was not recorded in the journal"));
  // Derived ahead only where a chain is watched; elsewhere on demand (a withdrawal's address check).
  const addresses = createDepositAddressBook(host, xpub, { eager: watched && config.chainJobs });
  const demoDepositEnabled = networks.some((n) => n.demoDepositEnabled);
  /** One faucet payment at a time per network: concurrent ones would take the same faucet nonce. */
  const faucetQueues = new Map<string, Promise<void>>();

  const depositRecord = (row: DepositRow, head: number): DepositRecordT => {
    const required = byCode.get(row.chain)?.confirmations ?? config.chainConfirmations;
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
      explorerUrl: catalogue.txUrl(row.chain, row.txHash),
    };
  };

  /** Balances of `addrs` for `c` on network `n`, summed in chain units (sequential: the node is asked one address at a time). */
  async function chainBalance(n: ChainNetwork, c: ChainCoin, addrs: readonly Address[]): Promise<bigint> {
    let sum = 0n;
    for (const a of addrs) sum += c.token === null ? await n.client!.balance(a) : await n.client!.tokenBalance(c.token, a);
    return sum;
  }

  async function usedDepositAddresses(chain: string): Promise<Address[]> {
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

  const hot = first?.hotWalletAddress ?? null;

  async function reservesByNetwork(): Promise<Map<string, Map<string, bigint>>> {
    const out = new Map<string, Map<string, bigint>>();
    for (const n of networks) {
      if (!n.client) continue;
      const addrs = [...(hot ? [hot] : []), ...(await usedDepositAddresses(n.code))];
      const m = new Map<string, bigint>();
      for (const c of n.coins()) m.set(c.coin, chainToEngine(await chainBalance(n, c, addrs), c.chainDecimals).units);
      out.set(n.code, m);
    }
    return out;
  }

  /** The followed head of every network among `rows` (one read each). */
  async function headsOf(rows: readonly DepositRow[]): Promise<Map<string, number>> {
    const heads = new Map<string, number>();
    for (const chain of new Set(rows.map((r) => r.chain))) heads.set(chain, await chainHead(db, chain));
    return heads;
  }

  return {
    networks,
    network: (code) => byCode.get(code),
    xpub,
    identityRecorded,
    hotWalletAddress: hot,
    catalogue,
    addresses,
    depositAddress: (userId) => addresses.addressOf(userId),
    isDepositAddress: (address) => addresses.userOf(address) !== undefined,
    demoDepositEnabled,
    async demoDeposit(userId, coin, amount, chain = EVM_CHAIN) {
      if (!demoDepositEnabled) throw new AppError('not_found', 404);
      const n = byCode.get(chain);
      const rpcUrl = rpcUrls.get(chain);
      if (!n || !n.demoDepositEnabled || rpcUrl === undefined) throw new AppError('chain_not_available', 400, 'chain');
      const c = n.coins().find((x) => x.coin === coin);
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
      const paid = (faucetQueues.get(chain) ?? Promise.resolve()).then(() => payFromDevFaucet(rpcUrl, n.chainId, to, c.token, chainAmount));
      faucetQueues.set(
        chain,
        paid.then(
          () => undefined,
          () => undefined,
        ),
      );
      try {
        const txHash = await paid;
        return { txHash };
      } catch (err) {
        deps.log.warn({ err, userId, coin, chain }, 'demo deposit failed');
        throw new AppError('chain_node_unavailable', 503);
      }
    },
    head: (chain) => chainHead(db, chain),
    depositRecord,
    async depositRecords(rows) {
      const heads = await headsOf(rows);
      return rows.map((r) => depositRecord(r, heads.get(r.chain) ?? 0));
    },
    async adminDeposits(q) {
      const { rows, total } = await adminListDeposits(db, { status: q.status, limit: q.pageSize, offset: (q.page - 1) * q.pageSize });
      const heads = await headsOf(rows);
      return {
        total,
        list: rows.map((r) => ({ ...depositRecord(r, heads.get(r.chain) ?? 0), userId: String(r.userId), account: accountOf(String(r.userId)) })),
      };
    },
    async alerts() {
      return (await listAlerts(db, 200)).map((a) => ({ id: String(a.id), chain: a.chain, kind: a.kind, message: a.message, createdAt: a.createdAt.getTime() }));
    },
    async hotWallet() {
      const rows: Static<typeof HotWalletRow>[] = [];
      for (const n of networks) {
        const used = n.client ? await usedDepositAddresses(n.code) : [];
        for (const c of n.coins()) {
          const hotUnits = n.client && hot ? chainToEngine(await chainBalance(n, c, [hot]), c.chainDecimals).units : null;
          const depUnits = n.client ? chainToEngine(await chainBalance(n, c, used), c.chainDecimals).units : null;
          rows.push({
            chain: n.code,
            coin: c.coin,
            hotWalletAddress: hot ?? '',
            hotWallet: hotUnits === null ? '' : formatDecimal(hotUnits, ENGINE_SCALE),
            depositAddresses: depUnits === null ? '' : formatDecimal(depUnits, ENGINE_SCALE),
            // what users are owed of the coin, whichever network it came by (the engine keeps one balance per coin)
            liabilities: formatDecimal(liabilities(c.coin), ENGINE_SCALE),
          });
        }
      }
      return rows;
    },
    onChainReservesByNetwork: reservesByNetwork,
    close() {
      addresses.close();
    },
  };
}
