/**
 * The in-app inbox's projection (platform/engine-host/projection.ts; route /message; table inbox_messages,
 * inbox.tables.ts): the
 * messages a command's events mean for its users, derived from the events alone, so the same journal always gives the
 * same messages (a database rebuilt from it gets the same inbox, unread).
 *
 * What makes a message (kinds and parameters: packages/api inbox.ts), all for registered users only (numeric ids; the
 * liquidity bots and system accounts get none):
 * - depositCredited: DEPOSIT_CREDITED, key `dep:<chain>:<txHash>:<logIndex>`.
 * - withdrawalUpdated to COMPLETED, FAILED, or REJECTED by an operator (the owner cancelling his own is not news):
 *   WITHDRAWAL_*, key `wd:<id>:<state>`.
 * - spot fills: one message per order, key `spot:<orderId>`, carrying the order's cumulative fills after the command
 *   (a trade event names the orders, the order's last orderAccepted/orderUpdated of the command gives its state). An
 *   order filled in 30 pieces is one message that the later fills update (and mark unread again), not 30: an inbox
 *   is not a trade log (the fills stay in the order history).
 * - perpetual fills: the same, key `perp:<orderId>`, except the engine's own orders of a liquidation takeover (the
 *   LIQUIDATED message says it).
 * - liquidated: LIQUIDATED, key `liq:<seq>:<symbol>:<marginMode>`.
 * - userUpdated carrying the console's KYC decision (audit action kyc_approve / kyc_reject): KYC_*, key `kyc:<seq>`.
 * - otcOrderChanged: the side that did not act is told (taken: the merchant; paid: the seller; released: the buyer;
 *   appeal and its withdrawal: the other side; cancelled by the buyer: the seller; time-out and an operator's
 *   resolution: both), key `otc:<orderId>:<state>:<endReason>:<appealTs>` so that a repeated state (a change of the
 *   order's data only) makes no second message.
 * Security events are not journaled: domains/security writes their messages (inbox.repository.ts securityMessage).
 */
import type { EngineEvent, OrderView, PerpOrderView } from '@exchange/core';
import { projectedTable } from '../../platform/db/projection-types';
import { inboxMessages } from './inbox.tables';
import { isProjectedUser, type DomainProjection } from '../../platform/engine-host/projection';

/** An inbox row as the projection writes it (id and read state are the database's). */
export type InboxRow = Omit<typeof inboxMessages.$inferInsert, 'id' | 'readAt'>;

/**
 * inbox_messages: upserted by (user, key); a row changes (and becomes unread again) only when its parameters did, never
 * to an older state, so a replay leaves the inbox and its read marks as they were.
 */
export const INBOX_TABLE = projectedTable(inboxMessages, {
  key: ['userId', 'key'],
  mode: 'upsert',
  set: ['params', 'ts', 'seq'],
  clear: ['readAt'],
  newer: { field: 'seq', strict: true, changed: ['params'] },
});

type Params = Record<string, string>;

function row(userId: string, key: string, category: string, kind: string, params: Params, ts: number, seq: number): InboxRow {
  return { userId: BigInt(userId), key, category, kind, params: JSON.stringify(params), ts, seq };
}

function fillParams(o: OrderView | PerpOrderView): Params {
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    side: o.side,
    filledQty: o.filledQty.toString(),
    filledQuote: o.filledQuote.toString(),
    status: o.status,
  };
}

/** Parses the JSON text of an audit record's `after`; {} when absent or not an object. */
function auditAfter(audit: Readonly<Record<string, string>>): Record<string, unknown> {
  try {
    const v = JSON.parse(audit.after ?? '') as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The inbox rows of the events of command `seq`, in event order (one row per user and key: the last state of an order
 * in the command). Pure: same events, same rows.
 */
export function inboxRows(seq: number, events: readonly EngineEvent[]): InboxRow[] {
  const out = new Map<string, InboxRow>();
  const put = (r: InboxRow) => out.set(`${r.userId}:${r.key}`, r);
  // Orders that traded in this command (spot and perpetual), and their last state in it.
  const spotTraded = new Set<string>();
  const perpTraded = new Set<string>();
  const spotLast = new Map<string, { order: OrderView; ts: number }>();
  const perpLast = new Map<string, { order: PerpOrderView; ts: number }>();
  for (const ev of events) {
    switch (ev.type) {
      case 'depositCredited': {
        const d = ev.deposit;
        if (isProjectedUser(d.userId))
          put(
            row(
              d.userId,
              `dep:${d.chain}:${d.txHash}:${d.logIndex}`,
              'ASSET',
              'DEPOSIT_CREDITED',
              { coin: d.asset, amount: d.amount.toString(), chain: d.chain },
              ev.ts,
              seq,
            ),
          );
        break;
      }
      case 'withdrawalUpdated': {
        const w = ev.withdrawal;
        if (!isProjectedUser(w.userId)) break;
        const base = { coin: w.asset, amount: w.amount.toString(), chain: w.chain };
        const key = `wd:${w.withdrawalId}:${w.state}`;
        if (w.state === 'COMPLETED')
          put(
            row(
              w.userId,
              key,
              'ASSET',
              'WITHDRAWAL_COMPLETED',
              { ...base, amount: (w.amount - w.fee).toString(), fee: w.fee.toString(), address: w.address },
              ev.ts,
              seq,
            ),
          );
        else if (w.state === 'FAILED') put(row(w.userId, key, 'ASSET', 'WITHDRAWAL_FAILED', base, ev.ts, seq));
        else if (w.state === 'REJECTED' && w.rejectedBy !== null) {
          put(
            row(w.userId, key, 'ASSET', 'WITHDRAWAL_REJECTED', { ...base, reasonZh: ev.audit?.reasonZh ?? '', reasonEn: ev.audit?.reasonEn ?? '' }, ev.ts, seq),
          );
        }
        break;
      }
      case 'trade':
        spotTraded.add(ev.makerOrderId);
        spotTraded.add(ev.takerOrderId);
        break;
      case 'orderAccepted':
      case 'orderUpdated':
        if (isProjectedUser(ev.order.userId)) spotLast.set(ev.order.orderId, { order: ev.order, ts: ev.ts });
        break;
      case 'perpTrade':
        if (ev.kind === 'TAKEOVER') break;
        if (ev.makerOrderId !== null) perpTraded.add(ev.makerOrderId);
        if (ev.takerOrderId !== null) perpTraded.add(ev.takerOrderId);
        break;
      case 'perpOrderAccepted':
      case 'perpOrderUpdated':
        if (isProjectedUser(ev.order.userId)) perpLast.set(ev.order.orderId, { order: ev.order, ts: ev.ts });
        break;
      case 'liquidated':
        if (isProjectedUser(ev.userId)) {
          put(
            row(
              ev.userId,
              `liq:${seq}:${ev.symbol}:${ev.marginMode}`,
              'TRADE',
              'LIQUIDATED',
              { symbol: ev.symbol, side: ev.side, size: ev.size.toString(), markPrice: ev.markPrice.toString(), marginMode: ev.marginMode },
              ev.ts,
              seq,
            ),
          );
        }
        break;
      case 'userUpdated': {
        const action = ev.audit?.action;
        if ((action !== 'kyc_approve' && action !== 'kyc_reject') || !isProjectedUser(ev.userId)) break;
        const after = auditAfter(ev.audit!);
        const str = (v: unknown) => (typeof v === 'string' ? v : '');
        const params: Params = { level: str(after.level) || 'BASIC' };
        if (action === 'kyc_reject') Object.assign(params, { reasonZh: str(after.reasonZh), reasonEn: str(after.reasonEn) });
        put(row(ev.userId, `kyc:${seq}`, 'ACCOUNT', action === 'kyc_approve' ? 'KYC_APPROVED' : 'KYC_REJECTED', params, ev.ts, seq));
        break;
      }
      case 'otcOrderChanged': {
        const o = ev.order;
        const key = `otc:${o.orderId}:${o.state}:${o.endReason ?? ''}:${o.appealTs ?? 0}`;
        const params: Params = { orderId: o.orderId, coin: o.asset, quantity: o.quantity.toString(), fiat: o.fiat, fiatAmount: o.fiatAmount.toString() };
        const tell = (userIds: string[], kind: string, extra: Params = {}) => {
          for (const u of userIds) if (isProjectedUser(u)) put(row(u, key, 'OTC', kind, { ...params, ...extra }, ev.ts, seq));
        };
        const other = (u: string | null) => (u === o.buyerId ? o.sellerId : o.buyerId);
        if (o.state === 'PENDING_PAYMENT') tell([o.makerId], 'OTC_TAKEN');
        else if (o.state === 'PAID') {
          // PAID again after an appeal: the appellant withdrew it (appealBy stays set, otc-engine cancelAppeal).
          if (o.appealBy !== null) tell([other(o.appealBy)], 'OTC_APPEAL_CANCELLED');
          else tell([o.sellerId], 'OTC_PAID');
        } else if (o.state === 'APPEAL') tell([other(o.appealBy)], 'OTC_APPEAL');
        else if (o.state === 'COMPLETED') {
          if (o.endReason === 'APPEAL_RELEASED') tell([o.buyerId, o.sellerId], 'OTC_APPEAL_RESOLVED', { outcome: 'RELEASED' });
          else tell([o.buyerId], 'OTC_RELEASED');
        } else if (o.state === 'CANCELLED') {
          if (o.endReason === 'APPEAL_RETURNED') tell([o.buyerId, o.sellerId], 'OTC_APPEAL_RESOLVED', { outcome: 'RETURNED' });
          else if (o.endReason === 'TIMEOUT') tell([o.buyerId, o.sellerId], 'OTC_CANCELLED', { reason: 'TIMEOUT' });
          else tell([o.sellerId], 'OTC_CANCELLED', { reason: 'BUYER_CANCELLED' });
        }
        break;
      }
      default:
        break;
    }
  }
  for (const id of spotTraded) {
    const last = spotLast.get(id);
    if (last && last.order.filledQty > 0n) put(row(last.order.userId, `spot:${id}`, 'TRADE', 'SPOT_FILLED', fillParams(last.order), last.ts, seq));
  }
  for (const id of perpTraded) {
    const last = perpLast.get(id);
    if (!last || last.order.filledQty === 0n || last.order.trigger === 'LIQUIDATION') continue;
    put(row(last.order.userId, `perp:${id}`, 'TRADE', 'CONTRACT_FILLED', { ...fillParams(last.order), tradeType: last.order.tradeType }, last.ts, seq));
  }
  return [...out.values()];
}

export const inboxProjection: DomainProjection = {
  tables: [INBOX_TABLE],
  start: () => (seq, events, out) => {
    for (const r of inboxRows(seq, events)) out.put(INBOX_TABLE, r);
  },
};
