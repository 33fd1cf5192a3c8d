/**
 * A deterministic simulator of the engine host under faults: the real host, journal, snapshot store,
 * projector and engine, over an in-memory disk with a page cache (MemoryFs) and an in-memory projection
 * (MemoryProjectionStore). Per seed it runs a random workload (users, deposits, transfers, every order type,
 * cancels, snapshots) in concurrent groups (so batches share an fdatasync), injects one fault, recovers with a
 * new host, and checks:
 * - every acknowledged command is in the journal exactly once; nothing reported as failed (service_unavailable)
 *   is in it; a command whose outcome was reported unknown is in it at most once;
 * - the recovered state hash equals a clean replay of the journal by a fresh engine;
 * - every asset sums to zero over all accounts;
 * - the projection equals the journal's effect (cursor, journal id, users, orders), or the start was refused
 *   loudly (JournalCorruptError / JournalMismatchError) where the fault makes the pair unusable;
 * - the recovered host works: a new registrant gets the next id, never an old one.
 *
 * Faults: crash at a random instant (unsynced data dropped, kept, torn or zero-filled at random), a torn last
 * write, a zero-filled tail, a bit flipped in an old record, a failed fdatasync, a lost database, a database
 * rolled back to an earlier copy, a journal rolled back under a newer database, a database of another journal, and a
 * journal cut short inside a record at or before its recorded durable position (later segments removed) under a new
 * database, which must be refused as a loss (JournalLossError), not dropped as a torn write.
 * Everything is a function of the seed (PRNG, pinned clock, journal id), so a failing seed replays exactly.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { decodeCommand, Engine, type Command, type CommandResult, type MarketConfig } from '@exchange/core';
import { AppError } from '../platform/shared/errors';
import { createEngineHost, JournalMismatchError, type CommandInput, type EngineHost } from '../platform/engine-host/engine-host';
import { JournalCorruptError, JournalLossError, listSegments, readJournal, scanSegment } from '../platform/engine-host/journal';
import { readDurablePosition } from '../platform/engine-host/durable-position';
import { MemoryFs } from '../platform/engine-host/memory-fs';
import { MemoryProjectionStore } from '../platform/db/projection-store';
import type { DomainProjection } from '../platform/engine-host/projection';
import { USERS_TABLE } from '../domains/member/member.projection';
import { SPOT_ORDERS_TABLE } from '../domains/spot/spot.projection';

/** The kinds of fault, one per seed (seed modulo the count, so every kind is exercised evenly). */
export const FAULT_KINDS = [
  'crash',
  'torn_write',
  'zero_tail',
  'bit_flip',
  'fsync_fail',
  'db_lost',
  'db_rollback',
  'journal_rollback',
  'foreign_db',
  'journal_cut',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The outcome of one seed. `violations` empty = passed. */
export interface SeedReport {
  seed: number;
  fault: FaultKind;
  /** Commands acknowledged before the fault (each checked present exactly once after recovery, unless refused). */
  acked: number;
  /** Commands answered service_unavailable (checked absent). */
  failed: number;
  /** Commands answered outcome_unknown, or unanswered at the crash (checked present at most once). */
  unknown: number;
  /** Recovery refused to start (an allowed outcome only for bit_flip, journal_rollback, foreign_db and journal_cut). */
  refused: string | null;
  /** Acknowledged commands missing from the recovered journal (must be 0). */
  lost: number;
  violations: string[];
}

const DATA = '/data';
const JOURNAL = `${DATA}/journal`;
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const MARKET: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 4,
  tickSize: 5n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 1_000_000n,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
  status: 'TRADING',
};
const USERS = 3;

/** mulberry32: a small seeded PRNG. */
class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [lo, hi], both inclusive. */
  nextInt(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.nextInt(0, xs.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The identity of a command in the journal, from its own idempotency key (every generated command has one). */
function tagOf(cmd: Command): string | null {
  switch (cmd.type) {
    case 'placeOrder':
      return cmd.clientOrderId !== undefined ? `o:${cmd.userId}:${cmd.clientOrderId}` : null;
    case 'deposit':
      return cmd.ref !== undefined ? `d:${cmd.ref}` : null;
    case 'transfer':
      return cmd.clientId !== undefined ? `t:${cmd.clientId}` : null;
    case 'registerUser':
      return `u:${cmd.account}`;
    case 'cancelOrder':
      return `x:${cmd.userId}:${cmd.clientOrderId ?? cmd.orderId}`;
    default:
      return null;
  }
}

type Outcome = 'pending' | 'acked' | 'failed' | 'unknown';
interface Sent {
  tag: string;
  input: CommandInput;
  outcome: Outcome;
  result?: CommandResult;
}

/**
 * Runs one seed with the domains' `projections` (main/domains.ts `PROJECTIONS`; the check reads the users and spot
 * orders tables); never throws (an unexpected exception is a violation).
 */
export async function runSeed(seed: number, projections: readonly DomainProjection[]): Promise<SeedReport> {
  const fault = FAULT_KINDS[seed % FAULT_KINDS.length]!;
  const report: SeedReport = { seed, fault, acked: 0, failed: 0, unknown: 0, refused: null, lost: 0, violations: [] };
  try {
    await simulate(seed, fault, report, projections);
  } catch (err) {
    report.violations.push(`unexpected exception: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
  return report;
}

async function simulate(seed: number, fault: FaultKind, report: SeedReport, projections: readonly DomainProjection[]): Promise<void> {
  const rng = new Rng(seed * 2654435761);
  let clock = 1_800_000_000_000;
  const now = () => (clock += rng.nextInt(0, 3));
  const snapshotEvery = rng.pick([0, 5, 13, 40]);
  const open = (fs: MemoryFs, store: MemoryProjectionStore, journalId: string, onFatal?: () => void): Promise<EngineHost> =>
    createEngineHost({
      config: { dataDir: DATA, snapshotEvery },
      fs,
      store,
      projections,
      log,
      now,
      projectorFlushMs: 1_000_000_000,
      newJournalId: () => journalId,
      ...(onFatal ? { onFatal } : {}),
    });

  const fs = new MemoryFs();
  const store = new MemoryProjectionStore();
  let fatal = 0;
  const host = await open(fs, store, `sim-${seed}`, () => fatal++);
  const sent: Sent[] = [];
  let crashed = false;
  let n = 0;

  const submit = (input: CommandInput, tag: string): Promise<void> => {
    const s: Sent = { tag, input, outcome: 'pending' };
    sent.push(s);
    return host.submit(input).then(
      (r) => {
        if (crashed) return;
        s.outcome = 'acked';
        s.result = r;
      },
      (err: unknown) => {
        if (crashed) return;
        const code = err instanceof AppError ? err.code : 'other';
        s.outcome = code === 'service_unavailable' ? 'failed' : 'unknown';
      },
    );
  };

  // ---- setup: assets, market, users, funds (all acknowledged) ----
  await host.submit({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  await host.submit({ type: 'addAsset', asset: { code: 'BTC', scale: 8 } });
  await host.submit({ type: 'addMarket', market: MARKET });
  for (let u = 1; u <= USERS; u++) {
    await submit(
      { type: 'registerUser', account: `mail:u${u}@sim`, uniqueKeys: [`uuid:${seed}-${u}`], profile: { mail: `u${u}@sim`, nickName: '' } },
      `u:mail:u${u}@sim`,
    );
  }
  for (let u = 1; u <= USERS; u++) {
    await submit(
      { type: 'deposit', userId: `${u}`, asset: 'USDT', account: 'SPOT', amount: 50_000n * 100_000_000n, from: '@faucet', ref: `f-usdt-${u}` },
      `d:f-usdt-${u}`,
    );
    await submit(
      { type: 'deposit', userId: `${u}`, asset: 'BTC', account: 'SPOT', amount: 5n * 100_000_000n, from: '@chain', ref: `f-btc-${u}` },
      `d:f-btc-${u}`,
    );
  }

  const placed: Array<{ userId: string; cid: string; cancelled: boolean }> = [];
  const randomCommand = (): [CommandInput, string] => {
    const userId = `${rng.nextInt(1, USERS)}`;
    const k = rng.nextInt(0, 99);
    if (k < 8) {
      const ref = `dep-${++n}`;
      return [
        {
          type: 'deposit',
          userId,
          asset: rng.pick(['USDT', 'BTC']),
          account: rng.pick(['SPOT', 'ASSETS']),
          amount: BigInt(rng.nextInt(1, 10_000_000)),
          from: '@faucet',
          ref,
        },
        `d:${ref}`,
      ];
    }
    if (k < 14) {
      const clientId = `tr-${++n}`;
      const from = rng.pick(['SPOT', 'ASSETS'] as const);
      return [
        { type: 'transfer', userId, asset: 'USDT', from, to: from === 'SPOT' ? 'ASSETS' : 'SPOT', amount: BigInt(rng.nextInt(1, 100_000_000)), clientId },
        `t:${clientId}`,
      ];
    }
    if (k < 22) {
      const mine = placed.filter((p) => !p.cancelled);
      if (mine.length > 0) {
        const p = rng.pick(mine);
        p.cancelled = true;
        return [{ type: 'cancelOrder', userId: p.userId, clientOrderId: p.cid }, `x:${p.userId}:${p.cid}`];
      }
    }
    if (k < 26) {
      const account = `mail:new${++n}@sim`;
      return [{ type: 'registerUser', account, uniqueKeys: [`uuid:${seed}-n${n}`], profile: { mail: account.slice(5), nickName: '' } }, `u:${account}`];
    }
    const cid = `c${++n}`;
    placed.push({ userId, cid, cancelled: false });
    const side = rng.pick(['BUY', 'SELL'] as const);
    const price = BigInt(3_000_000 + rng.nextInt(-40, 40) * 5);
    const quantity = BigInt(rng.nextInt(1, 300));
    const shape = rng.nextInt(0, 5);
    const base = {
      type: 'placeOrder' as const,
      userId,
      symbol: MARKET.symbol,
      side,
      clientOrderId: cid,
      stp: rng.pick(['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE'] as const),
    };
    const input: CommandInput =
      shape === 0
        ? { ...base, orderType: 'MARKET', timeInForce: 'IOC', quantity }
        : shape === 1 && side === 'BUY'
          ? { ...base, orderType: 'MARKET', timeInForce: 'IOC', quoteAmount: BigInt(rng.nextInt(1, 200)) * 100_000_000n }
          : { ...base, orderType: 'LIMIT', timeInForce: rng.pick(['GTC', 'GTC', 'IOC', 'FOK', 'POST_ONLY'] as const), price, quantity };
    return [input, `o:${userId}:${cid}`];
  };

  // ---- workload, with the fault injected in round `faultRound` ----
  const rounds = rng.nextInt(3, 9);
  const faultRound = rng.nextInt(1, rounds - 1);
  let storeCopy: MemoryProjectionStore | null = null;
  let fsCopy: MemoryFs | null = null;
  let image: MemoryFs | null = null;
  for (let r = 0; r < rounds && image === null; r++) {
    if (r === faultRound && fault === 'fsync_fail') fs.failNextDatasync();
    const group = rng.nextInt(1, 8);
    const pending: Promise<void>[] = [];
    for (let i = 0; i < group; i++) {
      const [input, tag] = randomCommand();
      pending.push(submit(input, tag));
    }
    if (r === faultRound && (fault === 'crash' || fault === 'torn_write' || fault === 'zero_tail')) {
      // Power loss at a random instant while the group is in flight.
      const ticks = rng.nextInt(0, 40);
      for (let t = 0; t < ticks; t++) await Promise.resolve();
      crashed = true;
      image =
        fault === 'crash'
          ? fs.crash({ rng })
          : fault === 'torn_write'
            ? fs.crash({ data: (_f, unsynced) => (unsynced > 0 ? { tornAt: rng.nextInt(0, unsynced - 1) } : 'drop'), dirs: 'keep' })
            : fs.crash({ data: 'zero', dirs: 'keep' });
      break;
    }
    await Promise.all(pending);
    if (rng.chance(0.5)) await host.projected();
    if (rng.chance(0.2) && fatal === 0) await host.snapshotNow();
    if (r === faultRound - 1 || (r === 0 && faultRound === 0)) {
      storeCopy = store.clone();
      fsCopy = fs.clone();
    }
  }
  // The armed failure may hit a background snapshot write instead of the journal: the snapshot is abandoned (it
  // only shortens recovery) and the host goes on; the checks after recovery still apply.
  const journalFailed = fault === 'fsync_fail' && !(fatal === 0 && fs.stats.failedDatasyncs > 0);
  if (journalFailed && fatal !== 1) report.violations.push(`fsync failure: onFatal called ${fatal} times (expected 1)`);
  if (journalFailed && host.ready) report.violations.push('fsync failure: the host still reports ready');
  if (journalFailed) {
    // After the failure nothing more is taken.
    await submit({ type: 'deposit', userId: '1', asset: 'USDT', account: 'SPOT', amount: 1n, from: '@faucet', ref: 'after-fail' }, 'd:after-fail');
    if (sent[sent.length - 1]!.outcome !== 'failed') report.violations.push('a command submitted after the fsync failure was not refused');
  }
  if (image === null) {
    await host.projected().catch(() => {});
    // The durable position recorded up to the last command (its updates are spaced a few ms apart).
    for (let i = 0; fault === 'journal_cut' && i < 2000 && (host.stats.recordedSeq ?? 0) < host.stats.lastSeq; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    crashed = true;
    image = fault === 'fsync_fail' ? fs.crash({ rng }) : fs.crash({ rng });
  }
  let storeAfter = store.clone();
  let expectRefusal = false;
  switch (fault) {
    case 'bit_flip': {
      // A bit of a durable record: any record, the last one included (a flipped length bit there must not pass
      // for a torn write), one time in four in its 8-byte header.
      const segs = await listSegments(image, JOURNAL);
      const read = await readJournal(image, JOURNAL, 0, { truncate: false });
      if (read.records.length >= 2) {
        const victim = rng.chance(0.25) ? read.records.length - 1 : rng.nextInt(0, read.records.length - 1);
        let offset = 0;
        let seg = segs[0]!;
        for (const s of segs) {
          const buf = await image.readFile(s.file);
          const scan = scanSegment(s.file, s.start, buf, false);
          const hit = scan.records.find((x) => x.seq === read.records[victim]!.seq);
          if (hit) {
            seg = s;
            offset = hit.offset + (rng.chance(0.25) ? rng.nextInt(0, 7) : rng.nextInt(0, 8 + 8 + hit.body.length - 1));
            break;
          }
        }
        image.flipBit(seg.file, offset, rng.nextInt(0, 7));
        expectRefusal = true;
      }
      break;
    }
    case 'db_lost':
      storeAfter = new MemoryProjectionStore();
      break;
    case 'db_rollback':
      storeAfter = storeCopy ?? new MemoryProjectionStore();
      break;
    case 'journal_rollback':
      if (fsCopy !== null) {
        image = fsCopy.crash({ data: 'drop', dirs: 'drop' });
        expectRefusal = store.cursor > 0;
      }
      break;
    case 'foreign_db': {
      const otherFs = new MemoryFs();
      const other = new MemoryProjectionStore();
      const h = await open(otherFs, other, `other-${seed}`);
      await h.submit({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
      await h.close();
      storeAfter = other;
      expectRefusal = true;
      break;
    }
    case 'journal_cut': {
      // Cut inside a record at or before the recorded durable position (the last one half the time), remove every
      // later segment, and start on a new database: only the recorded position can tell this from a torn write.
      const durable = await readDurablePosition(image, JOURNAL);
      if (durable.kind !== 'ok') {
        report.violations.push(`journal_cut: no recorded durable position (${durable.kind})`);
        break;
      }
      const top = durable.position.seq;
      if (top < 2) break;
      const victim = rng.chance(0.5) ? top : rng.nextInt(2, top);
      const segs = await listSegments(image, JOURNAL);
      const at = segs.findLastIndex((x) => x.start <= victim);
      const seg = segs[at]!;
      const scan = scanSegment(seg.file, seg.start, await image.readFile(seg.file), false);
      const rec = scan.records[victim - seg.start];
      if (rec === undefined) {
        report.violations.push(`journal_cut: record ${victim} (recorded durable) is not in ${seg.file}`);
        break;
      }
      const recordBytes = scan.bodyEnd(victim - seg.start) - rec.offset;
      for (const later of segs.slice(at + 1)) await image.rm(later.file);
      await image.fsyncDir(JOURNAL);
      await image.truncate(seg.file, rec.offset + rng.nextInt(1, recordBytes - 1));
      storeAfter = new MemoryProjectionStore();
      expectRefusal = true;
      break;
    }
    default:
      break;
  }

  for (const s of sent) {
    if (s.outcome === 'pending') s.outcome = 'unknown';
    if (s.outcome === 'acked') report.acked++;
    else if (s.outcome === 'failed') report.failed++;
    else report.unknown++;
  }

  // ---- recover ----
  let host2: EngineHost;
  try {
    host2 = await open(image, storeAfter, `sim-${seed}-again`);
  } catch (err) {
    if (err instanceof JournalCorruptError || err instanceof JournalMismatchError) {
      report.refused = `${err.name}: ${err.message.slice(0, 160)}`;
      if (!expectRefusal && !(fault === 'journal_rollback')) report.violations.push(`refused to start after ${fault}: ${err.message}`);
      if (err instanceof JournalCorruptError && !/npm run journal/.test(err.message))
        report.violations.push('the corruption message does not name the operator command');
      if (fault === 'journal_cut' && !(err instanceof JournalLossError)) report.violations.push(`journal_cut refused as ${err.name}, not as a loss`);
      return;
    }
    throw err;
  }
  if (expectRefusal && fault !== 'journal_rollback') report.violations.push(`started after ${fault} (expected a loud refusal)`);
  if (fault === 'journal_rollback' && expectRefusal && storeAfter.cursor > host2.recovery.lastSeq) {
    report.violations.push('started with a database ahead of the journal');
  }

  // ---- check the journal against what was acknowledged ----
  const read = await readJournal(image, JOURNAL, 0, { truncate: false });
  const counts = new Map<string, number>();
  const replay = new Engine();
  for (const rec of read.records) {
    const cmd = decodeCommand(rec.body);
    replay.execute(cmd);
    const tag = tagOf(cmd);
    if (tag !== null) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  if (fault !== 'journal_rollback') {
    for (const s of sent) {
      const c = counts.get(s.tag) ?? 0;
      if (s.outcome === 'acked' && c !== 1) {
        report.violations.push(`acknowledged ${s.tag} is in the journal ${c} times`);
        if (c === 0) report.lost++;
      }
      if (s.outcome === 'failed' && c !== 0) report.violations.push(`${s.tag} was reported failed but is in the journal`);
      if (s.outcome === 'unknown' && c > 1) report.violations.push(`${s.tag} (outcome unknown) is in the journal ${c} times`);
    }
  }
  for (const [tag, c] of counts) if (c > 1) report.violations.push(`${tag} is in the journal ${c} times`);
  const hash = host2.engine.stateHash();
  if (hash !== replay.stateHash()) report.violations.push('the recovered state differs from a clean replay of the journal');
  for (const [asset, total] of host2.engine.assetTotals()) if (total !== 0n) report.violations.push(`${asset} sums to ${total}, not 0`);
  // Acknowledged registrations keep their ids; acknowledged orders belong to their users.
  if (fault !== 'journal_rollback') {
    for (const s of sent) {
      if (s.outcome !== 'acked' || !s.result) continue;
      if (s.input.type === 'registerUser' && s.result.code === 'ok' && host2.engine.userByKey(s.input.account) !== s.result.userId) {
        report.violations.push(`user ${s.input.account} was acknowledged as ${s.result.userId} but is ${host2.engine.userByKey(s.input.account)}`);
      }
    }
  }

  // ---- check the projection ----
  await host2.projected();
  if (storeAfter.cursor !== host2.stats.lastSeq) report.violations.push(`projection cursor ${storeAfter.cursor} != journal ${host2.stats.lastSeq}`);
  if (storeAfter.journalId !== host2.engine.journalId()) report.violations.push('projection journal id differs');
  const users = storeAfter.rows<NonNullable<typeof USERS_TABLE.row>>(USERS_TABLE.rule.table);
  const orders = storeAfter.rows<NonNullable<typeof SPOT_ORDERS_TABLE.row>>(SPOT_ORDERS_TABLE.rule.table);
  const engineUsers = host2.engine.userRows();
  if (users.size !== engineUsers.length) report.violations.push(`projection has ${users.size} users, the engine ${engineUsers.length}`);
  for (const [id, , , profile] of engineUsers) {
    if (users.get(id)?.mail !== (profile.mail || null)) report.violations.push(`user ${id} projected wrong`);
  }
  for (const [id, row] of orders) {
    const o = host2.engine.order(id);
    if (o && (o.status !== row.status || o.filledQty.toString() !== row.filledQty))
      report.violations.push(`order ${id}: projection ${row.status}/${row.filledQty}, engine ${o.status}/${o.filledQty}`);
  }
  for (const u of ['1', '2', '3']) {
    for (const o of host2.engine.openOrders(u)) {
      const row = orders.get(o.orderId);
      if (!row || row.status !== o.status) report.violations.push(`open order ${o.orderId} not projected as ${o.status}`);
    }
  }

  // ---- the recovered host works, and never hands out an old id ----
  const lastUser = engineUsers.length;
  const r = await host2.submit({ type: 'registerUser', account: 'mail:after@sim', uniqueKeys: [], profile: { mail: 'after@sim' } });
  if (r.code !== 'ok' || r.userId !== `${lastUser + 1}`) report.violations.push(`a new registrant got ${r.code}/${r.userId}, expected id ${lastUser + 1}`);
  await host2.close();
}

/** Runs seeds `from` .. `from + count - 1` (see `runSeed`); returns the reports and totals. */
export async function runSeeds(
  from: number,
  count: number,
  projections: readonly DomainProjection[],
): Promise<{ reports: SeedReport[]; failed: SeedReport[]; totals: Record<string, number> }> {
  const reports: SeedReport[] = [];
  for (let s = from; s < from + count; s++) reports.push(await runSeed(s, projections));
  const totals: Record<string, number> = { seeds: reports.length, acked: 0, failed: 0, unknown: 0, refused: 0, lost: 0 };
  for (const rep of reports) {
    totals[`fault:${rep.fault}`] = (totals[`fault:${rep.fault}`] ?? 0) + 1;
    totals.acked! += rep.acked;
    totals.failed! += rep.failed;
    totals.unknown! += rep.unknown;
    totals.lost! += rep.lost;
    if (rep.refused !== null) totals.refused!++;
  }
  return { reports, failed: reports.filter((r) => r.violations.length > 0), totals };
}
