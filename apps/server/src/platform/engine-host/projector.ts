/**
 * The projector: writes engine events to the database in batches for queries and history (ARCHITECTURE.md section 3,
 * step 5). Users (registerUser/updateUser) and orders are upserted by their engine ids (last state in the batch
 * wins), trades inserted by trade id (a repeat is ignored), and the cursor row = sequence number of the last
 * command fully written plus the id of the journal, in the same transaction (projection-store.ts). Writing is
 * therefore idempotent: replaying the journal after a crash pushes the same events again and the rows come out
 * the same.
 *
 * The perpetual contracts' events (orders, fills, closed positions, funding payments, liquidations) are buffered by
 * perp-projection.ts and written in the same batches, by the same rules.
 *
 * A batch is written every `flushMs` (50 ms) or as soon as `maxEvents` (500) events are buffered. Orders of
 * non-numeric user ids (the liquidity bots, e.g. 'mm-BTC-USDT') are not projected; trades always are.
 * A failed write is logged and retried (the buffer is kept), so the database catching up never blocks matching;
 * the buffer is bounded by the host, which stops taking commands while `buffered` is above its limit.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { DepositCredit, EngineEvent, OrderView, TradeEvent, WithdrawalView } from '@exchange/core';
import type {
  AuditProjectionRow,
  DepositProjectionRow,
  OrderRow,
  ProjectionStore,
  TradeRow,
  TransferProjectionRow,
  UserProjectionRow,
  WithdrawalProjectionRow,
} from '../db/projection-store';
import type { RebatePayoutRow } from '../db/projection-types';
import { PerpBuffer } from './perp-projection';
import { OtcBuffer } from './otc-projection';
import { rebatePayoutRow } from './rebate-projection';
import { EarnBuffer } from './earn-projection';
import { InboxBuffer } from './inbox-projection';

export { SPOT_CURSOR } from '../db/projection-store';
const CLOSED: ReadonlySet<string> = new Set(['FILLED', 'CANCELED', 'EXPIRED']);

/** True for the user ids whose orders are projected (numeric ids of registered users). */
export function isProjectedUser(userId: string): boolean {
  return /^[0-9]+$/.test(userId);
}

/** The projector's surface used by the engine host. */
export interface Projector {
  /** Sequence number up to which every event is written (loaded from the store at start). */
  readonly cursor: number;
  /** The journal id the store projects (null for an empty store until the first write). */
  readonly journalId: string | null;
  /** Binds the projector to the journal; every later write records it. */
  bind(journalId: string): void;
  /** Buffers the events of command `seq` (seq strictly increasing across calls). */
  push(seq: number, events: readonly EngineEvent[]): void;
  /** Resolves once everything pushed before the call is written. */
  projected(): Promise<void>;
  /** Writes the buffer now (waits for a write already running). */
  flush(): Promise<void>;
  /** Number of events buffered and not yet written. */
  readonly buffered: number;
  /** Consecutive failed writes (0 when the last write succeeded). */
  readonly failures: number;
  /** Flushes and stops the timer. */
  close(): Promise<void>;
}

/** Options of `createProjector`. */
export interface ProjectorOptions {
  store: ProjectionStore;
  log: FastifyBaseLogger;
  flushMs?: number;
  maxEvents?: number;
}

function orderRow(o: OrderView, seq: number): OrderRow {
  const s = (v: bigint | null) => (v === null ? null : v.toString());
  return {
    id: BigInt(o.orderId),
    clientOrderId: o.clientOrderId,
    userId: o.userId,
    symbol: o.symbol,
    side: o.side,
    orderType: o.orderType,
    timeInForce: o.timeInForce,
    price: s(o.price),
    quantity: s(o.quantity),
    quoteAmount: s(o.quoteAmount),
    filledQty: o.filledQty.toString(),
    filledQuote: o.filledQuote.toString(),
    fee: o.fee.toString(),
    feeAsset: o.feeAsset,
    status: o.status,
    closed: CLOSED.has(o.status),
    createdTs: o.createdTs,
    updatedTs: o.updatedTs,
    seq,
  };
}

function tradeRow(t: TradeEvent, seq: number): TradeRow {
  return {
    id: BigInt(t.tradeId),
    symbol: t.symbol,
    price: t.price.toString(),
    quantity: t.quantity.toString(),
    quoteAmount: t.quoteAmount.toString(),
    takerSide: t.takerSide,
    makerOrderId: BigInt(t.makerOrderId),
    takerOrderId: BigInt(t.takerOrderId),
    makerUserId: t.makerUserId,
    takerUserId: t.takerUserId,
    makerFee: t.makerFee.toString(),
    makerFeeAsset: t.makerFeeAsset,
    takerFee: t.takerFee.toString(),
    takerFeeAsset: t.takerFeeAsset,
    ts: t.ts,
    seq,
  };
}

/**
 * The users row of an engine user: the profile fields the member service stores (member.service.ts
 * `PROFILE_FIELDS`), `createdAt` from the registration command's time.
 */
export function userRow(userId: string, p: Record<string, string>, createdTs: number): UserProjectionRow {
  return {
    id: BigInt(userId),
    uuid: p.uuid ?? '',
    mail: p.mail ? p.mail : null,
    phone: p.phone ? p.phone : null,
    areaCode: p.areaCode || '86',
    passwordHash: p.passwordHash ?? '',
    nickName: p.nickName ?? '',
    welCode: p.welCode ?? '',
    invitedBy: p.invitedBy ? BigInt(p.invitedBy) : null,
    cardNo: p.cardNo ?? '',
    cardState: p.cardState ?? '',
    createdAt: new Date(createdTs),
  };
}

/** Parses a JSON text of an audit record's before/after; null when empty or not JSON (kept as given then). */
function auditJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { text };
  }
}

/**
 * The audit_log row of an updateUser command's `audit` record (the operator console's, domains/admin/audit.ts
 * `engineAudit`): string fields operatorId, operatorEmail, action, before and after (JSON texts), ip, userAgent. The
 * row's time is the command's, its `engineSeq` the command's sequence number (a replay writes it once).
 */
export function auditRow(userId: string, audit: Readonly<Record<string, string>>, seq: number, ts: number): AuditProjectionRow {
  return {
    operatorId: audit.operatorId && /^[0-9]{1,18}$/.test(audit.operatorId) ? BigInt(audit.operatorId) : null,
    operatorEmail: audit.operatorEmail ?? '',
    action: audit.action ?? 'unknown',
    targetUserId: /^[0-9]{1,18}$/.test(userId) ? BigInt(userId) : null,
    before: auditJson(audit.before),
    after: auditJson(audit.after),
    at: new Date(ts),
    ip: audit.ip ?? '',
    userAgent: audit.userAgent ?? '',
    engineSeq: seq,
  };
}

/** The wallet_deposits row of a depositCredited event at journal position `seq` (status CREDITED). */
export function depositRow(d: DepositCredit, seq: number, ts: number): DepositProjectionRow {
  const at = new Date(ts);
  return {
    userId: BigInt(d.userId),
    coin: d.asset,
    chain: d.chain,
    txHash: d.txHash,
    logIndex: d.logIndex,
    blockNumber: d.blockNumber,
    blockHash: '',
    fromAddress: '',
    toAddress: d.address,
    amount: d.amount.toString(),
    chainAmount: '',
    status: 'CREDITED',
    creditedSeq: seq,
    createdAt: at,
    creditedAt: at,
    updatedAt: at,
  };
}

/**
 * The wallet_withdrawals row of a withdrawalUpdated event at journal position `seq`. The reject reason in both
 * languages comes from the command's audit record (`reasonZh`, `reasonEn`: the console's reject, domains/wallet),
 * else both are ''.
 */
export function withdrawalRow(w: WithdrawalView, seq: number, audit: Readonly<Record<string, string>> | undefined): WithdrawalProjectionRow {
  return {
    id: BigInt(w.withdrawalId),
    userId: BigInt(w.userId),
    clientId: w.clientId,
    coin: w.asset,
    chain: w.chain,
    address: w.address,
    amount: w.amount.toString(),
    fee: w.fee.toString(),
    status: w.state,
    approvalsRequired: w.approvalsRequired,
    approvals: [...w.approvals],
    fromAddress: w.from,
    nonce: w.nonce,
    txHash: w.txHash,
    rawTx: w.rawTx,
    blockNumber: w.blockNumber,
    reason: w.reason ?? '',
    reasonZh: audit?.reasonZh ?? '',
    reasonEn: audit?.reasonEn ?? '',
    rejectedBy: w.rejectedBy,
    createdTs: w.createdTs,
    updatedTs: w.updatedTs,
    seq,
  };
}

/** Loads the cursor and returns a running projector. */
export async function createProjector(opts: ProjectorOptions): Promise<Projector> {
  const { store, log } = opts;
  const flushMs = opts.flushMs ?? 50;
  const maxEvents = opts.maxEvents ?? 500;
  const loaded = await store.load();
  let cursor = loaded.cursor;
  let journalId = loaded.journalId;

  let users = new Map<string, UserProjectionRow>();
  let orders = new Map<string, OrderRow>();
  let trades: TradeRow[] = [];
  let audits: AuditProjectionRow[] = [];
  let deposits: DepositProjectionRow[] = [];
  let withdrawals = new Map<string, WithdrawalProjectionRow>();
  let transfers: TransferProjectionRow[] = [];
  const perp = new PerpBuffer();
  const otc = new OtcBuffer();
  let rebates: RebatePayoutRow[] = [];
  const earn = new EarnBuffer();
  const inbox = new InboxBuffer();
  let count = 0;
  let pushedSeq = cursor;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let failures = 0;
  let closed = false;
  const waiters: Array<{ seq: number; resolve: () => void }> = [];

  function settleWaiters(): void {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.seq <= cursor) {
        waiters[i]!.resolve();
        waiters.splice(i, 1);
      }
    }
  }

  function schedule(delay: number): void {
    if (timer !== null || closed) return;
    timer = setTimeout(() => {
      timer = null;
      void flush();
    }, delay);
  }

  async function writeOnce(): Promise<void> {
    if (pushedSeq <= cursor && count === 0) return;
    if (journalId === null) throw new Error('projector: not bound to a journal');
    const batchUsers = [...users.values()];
    const batchOrders = [...orders.values()];
    const batchTrades = trades;
    const batchAudits = audits;
    const batchDeposits = deposits;
    const batchWithdrawals = [...withdrawals.values()];
    const batchTransfers = transfers;
    const batchPerp = perp.take();
    const batchOtc = otc.take();
    const batchRebates = rebates;
    const batchInbox = inbox.take();
    rebates = [];
    const batchEarn = earn.take();
    const batchSeq = pushedSeq;
    users = new Map();
    orders = new Map();
    trades = [];
    audits = [];
    deposits = [];
    withdrawals = new Map();
    transfers = [];
    count = 0;
    try {
      await store.write({
        journalId,
        seq: batchSeq,
        users: batchUsers,
        orders: batchOrders,
        trades: batchTrades,
        audits: batchAudits,
        deposits: batchDeposits,
        withdrawals: batchWithdrawals,
        transfers: batchTransfers,
        ...(batchPerp ? { perp: batchPerp } : {}),
        ...(batchOtc ? { otc: batchOtc } : {}),
        ...(batchRebates.length > 0 ? { rebates: batchRebates } : {}),
        ...(batchEarn ? { earnLocks: batchEarn } : {}),
        ...(batchInbox ? { inbox: batchInbox } : {}),
      });
      cursor = Math.max(cursor, batchSeq);
      failures = 0;
      settleWaiters();
    } catch (err) {
      // Put the batch back under anything newer that arrived meanwhile, and retry later.
      for (const r of batchUsers) if (!users.has(String(r.id))) users.set(String(r.id), r);
      for (const r of batchOrders) if (!orders.has(String(r.id))) orders.set(String(r.id), r);
      trades = batchTrades.concat(trades);
      audits = batchAudits.concat(audits);
      deposits = batchDeposits.concat(deposits);
      for (const r of batchWithdrawals) if (!withdrawals.has(String(r.id))) withdrawals.set(String(r.id), r);
      transfers = batchTransfers.concat(transfers);
      count += perp.restore(batchPerp);
      count += otc.restore(batchOtc);
      rebates = batchRebates.concat(rebates);
      count += batchRebates.length;
      count += earn.restore(batchEarn);
      count += inbox.restore(batchInbox);
      count +=
        batchUsers.length +
        batchOrders.length +
        batchTrades.length +
        batchAudits.length +
        batchDeposits.length +
        batchWithdrawals.length +
        batchTransfers.length;
      failures++;
      log.error({ err, failures }, 'projector write failed; will retry');
      throw err;
    }
  }

  async function flush(): Promise<void> {
    // Wait for a write in progress (another caller may start the next one meanwhile).
    for (let r = running; r !== null; r = running as Promise<void> | null) await r.catch(() => {});
    if (pushedSeq <= cursor && count === 0) return;
    running = writeOnce().finally(() => {
      running = null;
    });
    try {
      await running;
    } catch {
      schedule(Math.min(5000, 100 * 2 ** Math.min(failures, 6)));
      return;
    }
    if (count > 0 || pushedSeq > cursor) schedule(count >= maxEvents ? 0 : flushMs);
  }

  return {
    get cursor() {
      return cursor;
    },
    get buffered() {
      return count;
    },
    get failures() {
      return failures;
    },
    get journalId() {
      return journalId;
    },
    bind(id) {
      journalId = id;
    },
    push(seq, events) {
      if (seq <= cursor) return;
      pushedSeq = seq;
      for (const ev of events) {
        if (ev.type === 'userRegistered') {
          users.set(ev.userId, userRow(ev.userId, ev.profile, ev.ts));
          count++;
        } else if (ev.type === 'userUpdated') {
          const prev = users.get(ev.userId);
          // createdAt is not updated by an upsert of an existing row; keep the registration time when known.
          users.set(ev.userId, userRow(ev.userId, ev.profile, prev?.createdAt instanceof Date ? prev.createdAt.getTime() : ev.ts));
          count++;
          // An operator's change carries its audit record: written in the same transaction as the users row.
          if (ev.audit !== undefined) {
            audits.push(auditRow(ev.userId, ev.audit, seq, ev.ts));
            count++;
          }
        } else if (ev.type === 'withdrawalUpdated' && isProjectedUser(ev.withdrawal.userId)) {
          withdrawals.set(ev.withdrawal.withdrawalId, withdrawalRow(ev.withdrawal, seq, ev.audit));
          count++;
          // An operator's approval or rejection carries its audit record: written in the same transaction.
          if (ev.audit !== undefined) {
            audits.push(auditRow(ev.withdrawal.userId, ev.audit, seq, ev.ts));
            count++;
          }
        } else if (ev.type === 'transferred' && isProjectedUser(ev.userId)) {
          transfers.push({
            seq,
            userId: BigInt(ev.userId),
            coin: ev.asset,
            fromAccount: ev.from,
            toAccount: ev.to,
            amount: ev.amount.toString(),
            clientId: ev.clientId,
            ts: ev.ts,
          });
          count++;
        } else if (ev.type === 'depositCredited') {
          deposits.push(depositRow(ev.deposit, seq, ev.ts));
          count++;
        } else if (ev.type === 'activityChanged' && ev.audit !== undefined) {
          // An operator's activity action (create, end: domains/activity) carries its audit record.
          audits.push(auditRow('', ev.audit, seq, ev.ts));
          count++;
        } else if (ev.type === 'trade') {
          trades.push(tradeRow(ev, seq));
          count++;
        } else if (ev.type === 'rebatePaid') {
          // Invitation rebates (rebate-projection.ts).
          rebates.push(rebatePayoutRow(ev, seq));
          count++;
        } else if ((ev.type === 'orderAccepted' || ev.type === 'orderUpdated') && isProjectedUser(ev.order.userId)) {
          orders.set(ev.order.orderId, orderRow(ev.order, seq));
          count++;
        } else {
          // The perpetual contracts' events (perp-projection.ts); 0 for every other event.
          count += perp.push(seq, ev);
          // Peer-to-peer fiat trading (otc-projection.ts); an operator's action carries its audit record.
          const n = otc.push(seq, ev);
          if (n > 0) {
            count += n;
            const target =
              ev.type === 'otcMerchantChanged'
                ? ev.merchant.userId
                : ev.type === 'otcAdChanged'
                  ? ev.ad.userId
                  : ev.type === 'otcOrderChanged'
                    ? ev.order.takerId
                    : '';
            if ('audit' in ev && ev.audit !== undefined) {
              audits.push(auditRow(target, ev.audit, seq, ev.ts));
              count++;
            }
          }
          // Fixed-term savings (earn-projection.ts); an operator's product change carries its audit record.
          count += earn.push(seq, ev);
          if (ev.type === 'earnProductChanged' && ev.audit !== undefined) {
            audits.push(auditRow('', ev.audit, seq, ev.ts));
            count++;
          }
        }
      }
      // The in-app inbox's messages of this command (inbox-projection.ts), written in the same batch.
      count += inbox.push(seq, events);
      if (count >= maxEvents && running === null) {
        if (timer !== null) clearTimeout(timer);
        timer = null;
        void flush();
      } else {
        schedule(flushMs);
      }
    },
    projected() {
      if (pushedSeq <= cursor) return Promise.resolve();
      const p = new Promise<void>((resolve) => waiters.push({ seq: pushedSeq, resolve }));
      void flush();
      return p;
    },
    flush,
    async close() {
      await flush();
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
