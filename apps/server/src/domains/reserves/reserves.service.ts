/**
 * Proof of reserves (docs/proof-of-reserves.md): a snapshot of every registered user's liabilities per
 * asset (the engine's available + frozen over the four accounts ASSETS, SPOT, CONTRACT, OTC, plus principal locked in savings; system accounts '@...'
 * and the demo's market-making accounts, which are the exchange's own, are not users), one leaf per user with a fresh
 * random 16-byte salt, committed in the Merkle-sum tree of packages/core (reserves/merkle-sum.ts). The root and the
 * per-asset totals are published (getRoot) next to the exchange's on-chain balances at that time and their ratio;
 * each user downloads their leaf and path (getMyProof) and verifies it themselves.
 *
 * The balances are read from the engine in one synchronous pass (no await between two users), so a snapshot is
 * one consistent state. The tree of the latest snapshot is rebuilt from its stored leaves on first use and kept in
 * memory (any gateway can answer a proof); the rebuilt root must equal the stored one.
 */
import { randomBytes } from 'node:crypto';
import { ACCOUNT_KINDS, formatDecimal, type EngineApi } from '@exchange/core';
import { buildTree, proofOf, type MerkleSumTree } from '@exchange/core/reserves';
import type { AdminReservesResult as AdminReservesResultSchema, ReservesProof, ReservesRoot } from '@exchange/api';
import type { Static } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/shared/errors';
import { createReservesRepository, type SnapshotRow } from './reserves.repository';

/** The operator who asks for a snapshot (domains/admin Actor), for the audit row. */
/** Answer of the console's reservesSnapshot. */
export type AdminReservesResult = Static<typeof AdminReservesResultSchema>;

export interface ReservesActor {
  id: bigint;
  email: string;
  ip: string;
  userAgent: string;
}

/**
 * The exchange's balances on chain per network and coin, in engine units (scale 8): hot wallet plus deposit
 * addresses (network code -> coin -> units). A coin absent from every network has no chain in this deployment (its
 * reserves are published as ''); a coin's reserves are the sum over its networks. Supplied by the chain service
 * (domains/wallet onChainReservesByNetwork) when a chain is configured.
 */
export type OnChainReserves = () => Promise<ReadonlyMap<string, ReadonlyMap<string, bigint>>>;

/** The per-coin sums of per-network reserves. */
export function sumOverNetworks(byNetwork: ReadonlyMap<string, ReadonlyMap<string, bigint>>): Map<string, bigint> {
  const total = new Map<string, bigint>();
  for (const m of byNetwork.values()) for (const [coin, units] of m) total.set(coin, (total.get(coin) ?? 0n) + units);
  return total;
}

/** What the service needs: the database, a read view of the engine, optionally the chain's balances and a clock. */
export interface ReservesDeps {
  db: Db;
  /** the engine port (read through `host.engine` at each use: the host may replace its engine object) */
  host: { readonly engine: Pick<EngineApi, 'assets' | 'userRows' | 'balancesOf'> & Partial<Pick<EngineApi, 'earnLocks'>> };
  log: FastifyBaseLogger;
  onChainReserves?: OnChainReserves;
  now?: () => Date;
}

export interface ReservesService {
  /**
   * Takes and publishes a snapshot; writes the audit row `reserves_snapshot` when `actor` is given (null: the schedule
   * or the demo's first start). Throws reserves_snapshot_running (409) while another snapshot is being taken.
   */
  takeSnapshot(actor: ReservesActor | null): Promise<AdminReservesResult>;
  /** The latest snapshot's root, totals, reserves and ratios. Throws reserves_no_snapshot (404). */
  root(): Promise<ReservesRoot>;
  /** The caller's leaf and path in the latest snapshot. Throws reserves_no_snapshot (404), reserves_not_included (404). */
  proof(userId: string): Promise<ReservesProof>;
  /** Takes a snapshot when none exists (demo start); true when it took one. */
  ensureSnapshot(): Promise<boolean>;
  /** Takes a snapshot every `hours` (0 = never); returns the stop function. A failure is logged, the next run retries. */
  schedule(hours: number): () => void;
}

/** A user id the engine registers: a positive decimal (the ids of users; '@...' and 'mm-...' owners are not). */
const USER_ID_RE = /^[1-9][0-9]{0,18}$/;

/** reserves / liabilities with 4 decimal places, rounded down; '' when reserves are unknown or liabilities 0. */
export function reserveRatio(reservesUnits: bigint | null, liabilitiesUnits: bigint): string {
  if (reservesUnits === null || liabilitiesUnits <= 0n) return '';
  return formatDecimal((reservesUnits * 10_000n) / liabilitiesUnits, 4);
}

/**
 * Every registered user's liabilities per asset from the engine, read synchronously (one consistent state). Users
 * holding nothing are left out. Returns the asset order (by code) and scales with the per-user balances.
 */
export function readLiabilities(engine: ReservesDeps['host']['engine']): {
  assets: string[];
  scales: number[];
  users: Array<{ userId: string; balances: bigint[] }>;
} {
  const assetList = [...engine.assets()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  const assets = assetList.map((a) => a.code);
  const position = new Map(assets.map((code, i) => [code, i]));
  const users: Array<{ userId: string; balances: bigint[] }> = [];
  // Principal locked in fixed-term savings sits in the system account '@earn' but is owed to its user.
  const locked = new Map<string, Map<string, bigint>>();
  for (const l of engine.earnLocks?.() ?? []) {
    const m = locked.get(l.userId) ?? new Map<string, bigint>();
    m.set(l.asset, (m.get(l.asset) ?? 0n) + l.amount);
    locked.set(l.userId, m);
  }
  for (const [userId] of engine.userRows()) {
    if (!USER_ID_RE.test(userId)) continue;
    const balances = new Array<bigint>(assets.length).fill(0n);
    const accounts = engine.balancesOf(userId);
    for (const kind of ACCOUNT_KINDS) {
      for (const [asset, b] of accounts.get(kind) ?? []) {
        const i = position.get(asset);
        if (i !== undefined) balances[i] = (balances[i] as bigint) + b.available + b.frozen;
      }
    }
    for (const [asset, amount] of locked.get(userId) ?? []) {
      const i = position.get(asset);
      if (i !== undefined) balances[i] = (balances[i] as bigint) + amount;
    }
    if (balances.some((b) => b !== 0n)) users.push({ userId, balances });
  }
  return { assets, scales: assetList.map((a) => a.scale), users };
}

/** Builds the proof-of-reserves service. */
export function createReservesService(deps: ReservesDeps): ReservesService {
  const repo = createReservesRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  let running = false;
  /** The tree of the latest snapshot this process has seen, with each user's leaf index. */
  let cached: { snapshotId: number; tree: MerkleSumTree } | null = null;

  async function treeOf(snap: SnapshotRow): Promise<MerkleSumTree> {
    if (cached?.snapshotId === snap.id) return cached.tree;
    const leaves = await repo.leaves(snap.id);
    const tree = buildTree(
      leaves.map((l) => ({ userId: l.userId.toString(), salt: l.salt, balances: l.balances.map((b) => BigInt(b)) })),
      snap.assets.length,
    );
    if (tree.root.hash !== snap.rootHash) throw new Error(`reserves snapshot ${snap.id}: the stored leaves do not give the stored root`);
    cached = { snapshotId: snap.id, tree };
    return tree;
  }

  async function latestOrThrow(): Promise<SnapshotRow> {
    const snap = await repo.latest();
    if (!snap) throw new AppError('reserves_no_snapshot', 404);
    return snap;
  }

  async function takeSnapshot(actor: ReservesActor | null): Promise<AdminReservesResult> {
    if (running) throw new AppError('reserves_snapshot_running', 409);
    running = true;
    try {
      const { assets, scales, users } = readLiabilities(deps.host.engine);
      const at = now();
      const leaves = users.map((u) => ({ userId: u.userId, salt: randomBytes(16).toString('hex'), balances: u.balances }));
      const tree = buildTree(leaves, assets.length);
      let byNetwork: ReadonlyMap<string, ReadonlyMap<string, bigint>> = new Map();
      if (deps.onChainReserves) {
        try {
          byNetwork = await deps.onChainReserves();
        } catch (err) {
          deps.log.warn({ err }, 'reserves snapshot: on-chain balances unavailable, published without reserves');
        }
      }
      const onChain = sumOverNetworks(byNetwork);
      const snapshotId = await repo.insertSnapshot(
        {
          rootHash: tree.root.hash,
          leafCount: leaves.length,
          assets,
          scales,
          liabilities: tree.root.sums.map(String),
          reserves: assets.map((a) => onChain.get(a)?.toString() ?? ''),
          reservesByNetwork: [...byNetwork].map(([chain, m]) => ({ chain, reserves: assets.map((a) => m.get(a)?.toString() ?? '') })),
          engineSeq: null,
          operatorId: actor?.id ?? null,
          createdAt: at,
        },
        leaves.map((l, i) => ({ leafIndex: i, userId: BigInt(l.userId), salt: l.salt, balances: l.balances.map(String) })),
        actor
          ? (id) => ({
              operatorId: actor.id,
              operatorEmail: actor.email,
              action: 'reserves_snapshot',
              after: { snapshotId: String(id), rootHash: tree.root.hash, leafCount: leaves.length },
              at,
              ip: actor.ip,
              userAgent: actor.userAgent,
            })
          : null,
      );
      cached = { snapshotId, tree };
      deps.log.info({ snapshotId, leafCount: leaves.length, rootHash: tree.root.hash }, 'proof-of-reserves snapshot published');
      return { snapshotId: String(snapshotId), rootHash: tree.root.hash, leafCount: leaves.length };
    } finally {
      running = false;
    }
  }

  return {
    takeSnapshot,

    async root() {
      const snap = await latestOrThrow();
      return {
        snapshotId: String(snap.id),
        createdAt: snap.createdAt.getTime(),
        rootHash: snap.rootHash,
        leafCount: snap.leafCount,
        assets: snap.assets,
        totals: snap.assets.map((coin, i) => {
          const scale = snap.scales[i] ?? 8;
          const liabilities = BigInt(snap.liabilities[i] ?? '0');
          const reserves = snap.reserves[i] ?? '';
          const networks = (snap.reservesByNetwork ?? [])
            .filter((n) => (n.reserves[i] ?? '') !== '')
            .map((n) => ({ chain: n.chain, reserves: formatDecimal(BigInt(n.reserves[i]!), scale) }));
          return {
            coin,
            liabilities: formatDecimal(liabilities, scale),
            reserves: reserves === '' ? '' : formatDecimal(BigInt(reserves), scale),
            ratio: reserveRatio(reserves === '' ? null : BigInt(reserves), liabilities),
            networks,
          };
        }),
      };
    },

    async proof(userId) {
      const snap = await latestOrThrow();
      if (!USER_ID_RE.test(userId)) throw new AppError('reserves_not_included', 404);
      const leaf = await repo.leafOf(snap.id, BigInt(userId));
      if (!leaf) throw new AppError('reserves_not_included', 404);
      const tree = await treeOf(snap);
      return {
        snapshotId: String(snap.id),
        rootHash: snap.rootHash,
        assets: snap.assets,
        scales: snap.scales,
        userId,
        salt: leaf.salt,
        balances: leaf.balances,
        leafIndex: leaf.leafIndex,
        path: proofOf(tree, leaf.leafIndex).map((s) => ({ side: s.side, hash: s.hash, sums: s.sums.map(String) })),
      };
    },

    async ensureSnapshot() {
      if (await repo.latest()) return false;
      await takeSnapshot(null);
      return true;
    },

    schedule(hours) {
      if (!(hours > 0)) return () => {};
      const timer = setInterval(
        () => {
          takeSnapshot(null).catch((err: unknown) => deps.log.error({ err }, 'scheduled proof-of-reserves snapshot failed'));
        },
        Math.round(hours * 3_600_000),
      );
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
