// Proves the engine's own types carry the money module's unit types: a market's tick size, an order's price and a
// fill's price are prices, its quantities are quantities, and one does not compile in the other's place.
import { quoteUnits, type Price, type Quantity } from '@exchange/money';
import { describe, expect, it } from 'vitest';
import type { MarketConfig, OrderView, TradeEvent } from './types';

describe('unit types on the engine', () => {
  it('keeps prices and quantities apart in markets, orders and fills', () => {
    const market = { tickSize: 1n, stepSize: 10n, minQty: 10n, minNotional: 100n } as Pick<MarketConfig, 'tickSize' | 'stepSize' | 'minQty' | 'minNotional'>;
    const order = { price: 6_500_000n, quantity: 15n, filledQty: 0n } as Pick<OrderView, 'price' | 'quantity' | 'filledQty'>;
    const fill = { price: 6_500_000n, quantity: 5n } as Pick<TradeEvent, 'price' | 'quantity'>;
    const s = { priceDecimals: 2, qtyDecimals: 4, baseScale: 8, quoteScale: 8 };
    expect(quoteUnits(fill.price, fill.quantity, s)).toBe(6_500_000n * 5n * 100n);
    // @ts-expect-error a fill's quantity where a price is expected
    quoteUnits(fill.quantity, fill.price, s);
    // @ts-expect-error a tick size is a price, not a quantity
    const step: Quantity = market.tickSize;
    // @ts-expect-error an order's quantity is not a price
    const price: Price = order.quantity!;
    const stepOk: Quantity = market.stepSize;
    expect([step, price, stepOk]).toEqual([1n, 15n, 10n]);
  });
});
