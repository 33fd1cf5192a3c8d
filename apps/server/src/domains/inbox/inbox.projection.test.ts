/**
 * Unit test of the inbox projection (inbox.projection.ts): for each kind of event, which users get which message with
 * which key and parameters, from hand-made events with literal figures; the bots and system accounts get none; an
 * order's fills in one command are one message with the order's last state; a repeated OTC state keeps its key; the
 * same events always give the same rows (a journal replay rebuilds the inbox); the buffer keeps the last row per key.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, OrderView, OtcOrderView, PerpOrderView, WithdrawalView } from '@exchange/core';
import { feedProjection } from '../../platform/engine-host/projection-test-support';
import { INBOX_TABLE, inboxProjection, inboxRows, type InboxRow } from './inbox.projection';

/** The projector's buffer fed by a fresh inbox projection. */
const buffer = () => feedProjection(inboxProjection, INBOX_TABLE);

const brief = (rows: InboxRow[]) => rows.map((r) => [String(r.userId), r.key, r.category, r.kind, JSON.parse(r.params) as Record<string, string>]);

const spot = (orderId: string, userId: string, filledQty: bigint, status: OrderView['status']): OrderView => ({
  orderId,
  clientOrderId: null,
  userId,
  symbol: 'BTC/USDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: 3_000_000n,
  quantity: 100_000n,
  quoteAmount: null,
  filledQty,
  filledQuote: filledQty * 30_000n,
  fee: 0n,
  feeAsset: 'BTC',
  status,
  createdTs: 1,
  updatedTs: 2,
});
const trade = (makerOrderId: string, makerUserId: string, takerOrderId: string, takerUserId: string): EngineEvent => ({
  type: 'trade',
  ts: 2,
  tradeId: '1',
  symbol: 'BTC/USDT',
  price: 3_000_000n,
  quantity: 40_000n,
  quoteAmount: 1_200_000_000n,
  takerSide: 'SELL',
  makerOrderId,
  takerOrderId,
  makerUserId,
  takerUserId,
  makerFee: 0n,
  makerFeeAsset: 'BTC',
  takerFee: 0n,
  takerFeeAsset: 'USDT',
});
const withdrawal = (state: WithdrawalView['state'], rejectedBy: string | null): WithdrawalView => ({
  withdrawalId: '9',
  userId: '5',
  clientId: 'w1',
  asset: 'USDT',
  chain: 'ETH',
  address: '0xabc',
  amount: 1_000_000_000n,
  fee: 100_000_000n,
  state,
  approvalsRequired: 1,
  approvals: [],
  from: null,
  nonce: null,
  txHash: null,
  rawTx: null,
  blockNumber: null,
  reason: null,
  rejectedBy,
  createdTs: 1,
  updatedTs: 2,
});
const otc = (over: Partial<OtcOrderView>): OtcOrderView => ({
  orderId: '7',
  clientId: 'c',
  adId: '3',
  makerId: '1',
  takerId: '2',
  buyerId: '2',
  sellerId: '1',
  asset: 'USDT',
  fiat: 'CNY',
  price: 720n,
  quantity: 10_000_000_000n,
  fiatAmount: 72_000n,
  state: 'PENDING_PAYMENT',
  createdTs: 1,
  deadlineTs: 900_001,
  paidTs: null,
  appealBy: null,
  appealTs: null,
  endReason: null,
  resolvedBy: null,
  reason: null,
  meta: {},
  updatedTs: 1,
  ...over,
});
const otcEv = (o: Partial<OtcOrderView>): EngineEvent => ({ type: 'otcOrderChanged', ts: 3, order: otc(o) });
const OTC_P = { orderId: '7', coin: 'USDT', quantity: '10000000000', fiat: 'CNY', fiatAmount: '72000' };
const perp = (orderId: string, userId: string, trigger: PerpOrderView['trigger'], tradeType: PerpOrderView['tradeType'] = 'OPEN_LONG'): PerpOrderView => ({
  orderId,
  clientOrderId: null,
  userId,
  symbol: 'BTC/USDT',
  side: 'BUY',
  orderType: 'MARKET',
  timeInForce: 'IOC',
  price: null,
  quantity: 1000n,
  lots: 1,
  reduceOnly: false,
  tradeType,
  trigger,
  leverage: 20,
  marginMode: 'CROSS',
  filledQty: 1000n,
  filledQuote: 5_000_000_000n,
  fee: 0n,
  realizedPnl: 0n,
  hold: 0n,
  takeProfit: null,
  stopLoss: null,
  status: 'FILLED',
  createdTs: 1,
  updatedTs: 2,
});
const perpTrade = (
  kind: 'BOOK' | 'TAKEOVER' | 'ADL',
  takerOrderId: string,
  takerUserId: string,
  makerOrderId: string | null,
  makerUserId: string,
): EngineEvent => ({
  type: 'perpTrade',
  ts: 2,
  tradeId: '1',
  symbol: 'BTC/USDT',
  kind,
  price: 5_000_000n,
  quantity: 1000n,
  quoteAmount: 5_000_000_000n,
  takerSide: 'BUY',
  makerOrderId,
  takerOrderId,
  makerUserId,
  takerUserId,
  makerFee: 0n,
  takerFee: 0n,
  makerRealizedPnl: 0n,
  takerRealizedPnl: 0n,
});

describe('inboxRows', () => {
  it('a credited chain deposit: DEPOSIT_CREDITED to its user, keyed by chain, tx and log index; none for a bot', () => {
    const d = { userId: '5', asset: 'USDT', amount: 150_000_000n, chain: 'ETH', txHash: '0xaa', logIndex: 2, address: '0xbb', blockNumber: 9 };
    expect(brief(inboxRows(11, [{ type: 'depositCredited', ts: 4, deposit: d }]))).toEqual([
      ['5', 'dep:ETH:0xaa:2', 'ASSET', 'DEPOSIT_CREDITED', { coin: 'USDT', amount: '150000000', chain: 'ETH' }],
    ]);
    expect(inboxRows(11, [{ type: 'depositCredited', ts: 4, deposit: { ...d, userId: 'mm-BTC-USDT' } }])).toEqual([]);
  });

  it('withdrawals: completed (amount received = amount - fee), failed, rejected by an operator with the reasons; not the owner cancelling, not the steps between', () => {
    const ev = (w: WithdrawalView, audit?: Record<string, string>): EngineEvent => ({
      type: 'withdrawalUpdated',
      ts: 4,
      withdrawal: w,
      ...(audit ? { audit } : {}),
    });
    expect(brief(inboxRows(1, [ev(withdrawal('COMPLETED', null))]))).toEqual([
      ['5', 'wd:9:COMPLETED', 'ASSET', 'WITHDRAWAL_COMPLETED', { coin: 'USDT', amount: '900000000', fee: '100000000', chain: 'ETH', address: '0xabc' }],
    ]);
    expect(brief(inboxRows(1, [ev(withdrawal('FAILED', null))]))[0]!.slice(1, 4)).toEqual(['wd:9:FAILED', 'ASSET', 'WITHDRAWAL_FAILED']);
    expect(brief(inboxRows(1, [ev(withdrawal('REJECTED', '3'), { reasonZh: '地址有风险', reasonEn: 'Risky address' })]))[0]![4]).toEqual({
      coin: 'USDT',
      amount: '1000000000',
      chain: 'ETH',
      reasonZh: '地址有风险',
      reasonEn: 'Risky address',
    });
    for (const s of ['REVIEW', 'APPROVED', 'BROADCASTING', 'CONFIRMING'] as const) expect(inboxRows(1, [ev(withdrawal(s, null))])).toEqual([]);
    expect(inboxRows(1, [ev(withdrawal('REJECTED', null))])).toEqual([]);
  });

  it("spot fills: one message per user's order with its last state in the command; the bot's side gets none; no fill, no message", () => {
    const events: EngineEvent[] = [
      { type: 'orderAccepted', ts: 2, order: spot('21', '6', 0n, 'NEW') },
      trade('20', '5', '21', '6'),
      { type: 'orderUpdated', ts: 2, order: spot('20', '5', 40_000n, 'PARTIALLY_FILLED') },
      trade('19', 'mm-BTC-USDT', '21', '6'),
      { type: 'orderUpdated', ts: 2, order: spot('19', 'mm-BTC-USDT', 60_000n, 'FILLED') },
      { type: 'orderUpdated', ts: 2, order: spot('21', '6', 100_000n, 'FILLED') },
    ];
    const rows = brief(inboxRows(12, events));
    expect(rows).toEqual([
      [
        '5',
        'spot:20',
        'TRADE',
        'SPOT_FILLED',
        { orderId: '20', symbol: 'BTC/USDT', side: 'BUY', filledQty: '40000', filledQuote: '1200000000', status: 'PARTIALLY_FILLED' },
      ],
      [
        '6',
        'spot:21',
        'TRADE',
        'SPOT_FILLED',
        { orderId: '21', symbol: 'BTC/USDT', side: 'BUY', filledQty: '100000', filledQuote: '3000000000', status: 'FILLED' },
      ],
    ]);
    // A cancel (no trade) makes no message.
    expect(inboxRows(13, [{ type: 'orderUpdated', ts: 3, order: spot('20', '5', 40_000n, 'CANCELED') }])).toEqual([]);
  });

  it('perpetual fills: CONTRACT_FILLED with the trade type; an ADL close too; the takeover of a liquidation only as LIQUIDATED', () => {
    const rows = brief(
      inboxRows(14, [
        perpTrade('BOOK', '31', '5', '30', '6'),
        { type: 'perpOrderUpdated', ts: 2, order: perp('30', '6', null, 'OPEN_SHORT') },
        { type: 'perpOrderAccepted', ts: 2, order: perp('31', '5', null) },
      ]),
    );
    expect(rows.map((r) => [r[0], r[1], r[3], (r[4] as Record<string, string>).tradeType, (r[4] as Record<string, string>).filledQuote])).toEqual([
      ['6', 'perp:30', 'CONTRACT_FILLED', 'OPEN_SHORT', '5000000000'],
      ['5', 'perp:31', 'CONTRACT_FILLED', 'OPEN_LONG', '5000000000'],
    ]);
    expect(
      brief(
        inboxRows(15, [perpTrade('ADL', '40', '5', null, '@insurance'), { type: 'perpOrderAccepted', ts: 2, order: perp('40', '5', 'ADL', 'FORCE_CLOSE') }]),
      ).map((r) => r[1]),
    ).toEqual(['perp:40']);
    const liq: EngineEvent[] = [
      {
        type: 'liquidated',
        ts: 5,
        userId: '5',
        symbol: 'BTC/USDT',
        marginMode: 'CROSS',
        markPrice: 4_500_000n,
        equity: -10n,
        insuranceDelta: 5n,
        size: 1000n,
        side: 'LONG',
      },
      perpTrade('TAKEOVER', '41', '5', null, '@insurance'),
      { type: 'perpOrderAccepted', ts: 5, order: perp('41', '5', 'LIQUIDATION', 'FORCE_CLOSE') },
    ];
    expect(brief(inboxRows(16, liq))).toEqual([
      ['5', 'liq:16:BTC/USDT:CROSS', 'TRADE', 'LIQUIDATED', { symbol: 'BTC/USDT', side: 'LONG', size: '1000', markPrice: '4500000', marginMode: 'CROSS' }],
    ]);
  });

  it('KYC decisions of the console (approve, reject with reasons); other profile changes make none', () => {
    const upd = (audit?: Record<string, string>): EngineEvent => ({ type: 'userUpdated', ts: 6, userId: '5', profile: {}, ...(audit ? { audit } : {}) });
    expect(brief(inboxRows(17, [upd({ action: 'kyc_approve', after: JSON.stringify({ level: 'ADVANCED', state: 'PASS' }) })]))).toEqual([
      ['5', 'kyc:17', 'ACCOUNT', 'KYC_APPROVED', { level: 'ADVANCED' }],
    ]);
    expect(
      brief(inboxRows(18, [upd({ action: 'kyc_reject', after: JSON.stringify({ level: 'BASIC', reasonZh: '照片模糊', reasonEn: 'Blurred photo' }) })])),
    ).toEqual([['5', 'kyc:18', 'ACCOUNT', 'KYC_REJECTED', { level: 'BASIC', reasonZh: '照片模糊', reasonEn: 'Blurred photo' }]]);
    expect(inboxRows(19, [upd(), upd({ action: 'user_freeze' })])).toEqual([]);
  });

  it('OTC order changes: the side that did not act is told; time-out and resolutions tell both', () => {
    const who = (o: Partial<OtcOrderView>) => brief(inboxRows(20, [otcEv(o)])).map((r) => [r[0], r[3], r[1]]);
    expect(who({})).toEqual([['1', 'OTC_TAKEN', 'otc:7:PENDING_PAYMENT::0']]);
    expect(who({ state: 'PAID', paidTs: 5 })).toEqual([['1', 'OTC_PAID', 'otc:7:PAID::0']]);
    expect(who({ state: 'APPEAL', appealBy: '2', appealTs: 8 })).toEqual([['1', 'OTC_APPEAL', 'otc:7:APPEAL::8']]);
    expect(who({ state: 'APPEAL', appealBy: '1', appealTs: 8 })).toEqual([['2', 'OTC_APPEAL', 'otc:7:APPEAL::8']]);
    expect(who({ state: 'PAID', appealBy: '2', appealTs: 8 })).toEqual([['1', 'OTC_APPEAL_CANCELLED', 'otc:7:PAID::8']]);
    expect(who({ state: 'COMPLETED', endReason: 'RELEASED' })).toEqual([['2', 'OTC_RELEASED', 'otc:7:COMPLETED:RELEASED:0']]);
    expect(who({ state: 'CANCELLED', endReason: 'BUYER_CANCELLED' })).toEqual([['1', 'OTC_CANCELLED', 'otc:7:CANCELLED:BUYER_CANCELLED:0']]);
    expect(who({ state: 'CANCELLED', endReason: 'TIMEOUT' }).map((r) => r[0])).toEqual(['2', '1']);
    const resolved = brief(inboxRows(21, [otcEv({ state: 'COMPLETED', endReason: 'APPEAL_RELEASED', appealBy: '2', appealTs: 8 })]));
    expect(resolved.map((r) => [r[0], r[3], (r[4] as Record<string, string>).outcome])).toEqual([
      ['2', 'OTC_APPEAL_RESOLVED', 'RELEASED'],
      ['1', 'OTC_APPEAL_RESOLVED', 'RELEASED'],
    ]);
    expect(brief(inboxRows(22, [otcEv({ state: 'CANCELLED', endReason: 'APPEAL_RETURNED', appealBy: '1', appealTs: 8 })]))[0]![4]).toEqual({
      ...OTC_P,
      outcome: 'RETURNED',
    });
    // A repeated state (a change of the order's data) has the same key: no second message.
    expect(inboxRows(23, [otcEv({ state: 'PAID', paidTs: 5 })])[0]!.key).toBe(inboxRows(20, [otcEv({ state: 'PAID', paidTs: 5 })])[0]!.key);
  });

  it('is deterministic, ignores market data and the system accounts, and the buffer keeps the last row per key', () => {
    const events: EngineEvent[] = [
      trade('20', '5', '21', '6'),
      { type: 'orderUpdated', ts: 2, order: spot('20', '5', 40_000n, 'PARTIALLY_FILLED') },
      { type: 'balanceChanged', ts: 2, owner: '5', account: 'SPOT', asset: 'BTC', available: 1n, frozen: 0n },
    ];
    expect(inboxRows(30, events)).toEqual(inboxRows(30, events));
    expect(inboxRows(30, [{ type: 'depthChanged', ts: 1, symbol: 'BTC/USDT', side: 'BUY', price: 1n, quantity: 1n }])).toEqual([]);
    const b = buffer();
    expect(b.push(30, events)).toBe(1);
    expect(b.push(31, [trade('20', '5', '22', 'mm-x'), { type: 'orderUpdated', ts: 3, order: spot('20', '5', 100_000n, 'FILLED') }])).toBe(1);
    const taken = b.take();
    expect(taken.map((r) => [r.key, r.seq, JSON.parse(r.params).status])).toEqual([['spot:20', 31, 'FILLED']]);
    expect(b.take()).toEqual([]);
    // A failed batch put back never replaces a newer buffered row.
    b.push(32, [trade('20', '5', '23', 'mm-x'), { type: 'orderUpdated', ts: 4, order: spot('20', '5', 100_000n, 'FILLED') }]);
    b.restore(taken);
    expect(b.take().map((r) => r.seq)).toEqual([32]);
  });
});
