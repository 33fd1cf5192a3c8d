/**
 * The peer: the `nodejs-order-book` package (MIT, fasenderos) under the same flow. It is a pure
 * limit order book (no balances, holds or fees); prices and sizes go in as the same integer ticks
 * and lots, as JavaScript numbers (all below 2^53, so exact). Orders carry the user as `accountId`
 * with stpMode EXPIRE_TAKER, like ours.
 */
import { OrderBook, SelfTradePreventionMode, Side } from 'nodejs-order-book';
import { CANCEL, MARKET, PLACE, type Flow } from '../flow/flow';
import type { BookLevels, FlowAdapter } from './adapter';

const SIDES: readonly Side[] = [Side.BUY, Side.SELL];

/** Adapter for nodejs-order-book (see the file comment). */
export class PeerAdapter implements FlowAdapter {
  readonly name = 'nodejs-order-book';
  private ob = new OrderBook();
  private users: string[] = [];
  private ids: string[] = [];
  private prices: number[] = [];
  private sizes: number[] = [];

  prepare(flow: Flow): void {
    this.ob = new OrderBook();
    this.users = Array.from({ length: flow.users }, (_, u) => `u${u}`);
    this.ids = Array.from({ length: flow.orderCount }, (_, i) => `o${i}`);
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const num = (v: bigint): number => {
      if (v > max) throw new Error(`${v} is not exact as a number`);
      return Number(v);
    };
    this.prices = flow.price.map(num);
    this.sizes = flow.qty.map(num);
  }

  run(flow: Flow): Map<string, number> {
    const ob = this.ob;
    const { kind, side, orderId, user, length } = flow;
    const { users, ids, prices, sizes } = this;
    const rejects = new Map<string, number>();
    const stpMode = SelfTradePreventionMode.EXPIRE_TAKER;
    for (let i = 0; i < length; i++) {
      const k = kind[i];
      let err: string | null = null;
      if (k === PLACE) {
        const r = ob.limit({
          id: ids[orderId[i] as number] as string,
          side: SIDES[side[i] as number] as Side,
          size: sizes[i] as number,
          price: prices[i] as number,
          accountId: users[user[i] as number] as string,
          stpMode,
        });
        if (r.err !== null) err = r.err.message;
      } else if (k === CANCEL) {
        if (ob.cancel(ids[orderId[i] as number] as string) === undefined) err = 'order not found';
      } else if (k === MARKET) {
        const r = ob.market({ side: SIDES[side[i] as number] as Side, size: sizes[i] as number, accountId: users[user[i] as number] as string, stpMode });
        if (r.err !== null) err = r.err.message;
      } else {
        throw new Error(`unknown command kind ${k}`);
      }
      if (err !== null) rejects.set(err, (rejects.get(err) ?? 0) + 1);
    }
    return rejects;
  }

  depth(levels: number): BookLevels {
    const [asks, bids] = this.ob.depth();
    const big = (l: [number, number]): [bigint, bigint] => [BigInt(l[0]), BigInt(l[1])];
    return {
      bids: bids
        .map(big)
        .sort((x, y) => (x[0] > y[0] ? -1 : 1))
        .slice(0, levels),
      asks: asks
        .map(big)
        .sort((x, y) => (x[0] < y[0] ? -1 : 1))
        .slice(0, levels),
    };
  }
}
