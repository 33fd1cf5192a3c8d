// Entrust hands of closing orders given as a quantity (a take-profit or stop-loss close): the hands they closed,
// counted on the closed entry notional as the position counts them, not on the fill value at the close price (which
// reads 0 for a one-lot short closed by its take profit below the entry). Pure: engine order views built by hand on
// the test market TSTP/USDT (1,000 USDT lots, price 2 decimals, quantity 3).
import { describe, expect, it } from 'vitest';
import type { PerpOrderView } from '@exchange/core';
import { entrustLots, toContractOrder } from './perp.format';
import { PERP, U } from './perp-test-support';
import { perpScales } from '../../platform/shared/market-scales';

const s = perpScales(PERP, 8);

/** A filled MARKET order of the test market given as a quantity (lots 0), as a trigger close leaves it. */
function filledMarket(over: Partial<PerpOrderView>): PerpOrderView {
  return {
    orderId: '1',
    clientOrderId: null,
    userId: 'u1',
    symbol: PERP.symbol,
    side: 'BUY',
    orderType: 'MARKET',
    timeInForce: 'IOC',
    price: null,
    quantity: 10_000n,
    lots: 0,
    reduceOnly: true,
    tradeType: 'NORMAL_CLOSE',
    trigger: 'TAKE_PROFIT',
    leverage: 10,
    marginMode: 'CROSS',
    filledQty: 10_000n,
    filledQuote: 900n * U,
    fee: 0n,
    realizedPnl: 100n * U,
    hold: 0n,
    takeProfit: null,
    stopLoss: null,
    status: 'FILLED',
    createdTs: 1,
    updatedTs: 2,
    ...over,
  };
}

describe('entrustLots of a closing order given as a quantity', () => {
  it("a one-lot short (10 TSTP at 100) closed by its take profit at 90 reads 1 lot, not the fill value's 0", () => {
    const tp = filledMarket({});
    expect(entrustLots(tp, s)).toBe(1);
    expect(toContractOrder(tp, s).lots).toBe(1);
  });

  it('a two-lot long (20 TSTP at 100) closed by its stop loss at 95 reads 2 lots', () => {
    const sl = filledMarket({ side: 'SELL', trigger: 'STOP_LOSS', quantity: 20_000n, filledQty: 20_000n, filledQuote: 1900n * U, realizedPnl: -100n * U });
    expect(entrustLots(sl, s)).toBe(2);
  });

  it('a long closed at a profit reads the lots it closed, not the larger fill value (2 lots at 100 closed at 160)', () => {
    const tp = filledMarket({ side: 'SELL', quantity: 20_000n, filledQty: 20_000n, filledQuote: 3200n * U, realizedPnl: 1200n * U });
    expect(entrustLots(tp, s)).toBe(2);
  });

  it('an opening MARKET order still counts its lots at its average fill price; lots entered are kept', () => {
    const open = filledMarket({
      tradeType: 'OPEN_LONG',
      trigger: null,
      reduceOnly: false,
      quantity: 20_000n,
      filledQty: 20_000n,
      filledQuote: 2000n * U,
      realizedPnl: 0n,
    });
    expect(entrustLots(open, s)).toBe(2);
    expect(entrustLots({ ...open, lots: 3 }, s)).toBe(3);
  });
});
