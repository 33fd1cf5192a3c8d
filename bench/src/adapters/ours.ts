/**
 * Our engine (`Engine` from @exchange/core) under the flow: one spot market, `flow.users` users each
 * funded by a deposit (not timed), every command a real `execute` with the ledger, holds, fees
 * (0.1% maker and taker, in ppm) and self-trade prevention (default EXPIRE_TAKER) in force.
 */
import { Engine, type Command, type CommandResult, type MarketConfig, type Side } from '@exchange/core';
import { CANCEL, MARKET, PLACE, type Flow } from '../flow/flow';
import type { BookLevels, FlowAdapter } from './adapter';

const SIDES: readonly Side[] = ['BUY', 'SELL'];
const SYMBOL = 'BASE/QUOTE';
const T0 = 1_723_161_255_000;

/** Adapter for our engine (see the file comment). */
export class OursAdapter implements FlowAdapter {
  readonly name = '@exchange/core Engine';
  private engine = new Engine();
  private users: string[] = [];
  private ids: (string | undefined)[] = [];

  private must(r: CommandResult, what: string): void {
    if (r.code !== 'ok') throw new Error(`${what}: ${r.code}`);
  }

  prepare(flow: Flow): void {
    const e = new Engine();
    const baseScale = Math.max(8, flow.qtyDecimals);
    const quoteScale = Math.max(8, flow.priceDecimals + flow.qtyDecimals);
    this.must(e.execute({ type: 'addAsset', ts: T0, asset: { code: 'BASE', scale: baseScale } }), 'addAsset');
    this.must(e.execute({ type: 'addAsset', ts: T0, asset: { code: 'QUOTE', scale: quoteScale } }), 'addAsset');
    const market: MarketConfig = {
      symbol: SYMBOL,
      base: 'BASE',
      quote: 'QUOTE',
      priceDecimals: flow.priceDecimals,
      qtyDecimals: flow.qtyDecimals,
      tickSize: 1n,
      stepSize: 1n,
      minQty: 1n,
      minNotional: 0n,
      makerFeePpm: 1000,
      takerFeePpm: 1000,
      status: 'TRADING',
    };
    this.must(e.execute({ type: 'addMarket', ts: T0, market }), 'addMarket');
    this.users = [];
    for (let u = 0; u < flow.users; u++) {
      const userId = `u${u}`;
      this.users.push(userId);
      // 10^12 coins of each asset: far more than the flow can ever hold.
      this.must(
        e.execute({ type: 'deposit', ts: T0, userId, asset: 'BASE', account: 'SPOT', amount: 10n ** BigInt(baseScale + 12), from: '@faucet' }),
        'deposit',
      );
      this.must(
        e.execute({ type: 'deposit', ts: T0, userId, asset: 'QUOTE', account: 'SPOT', amount: 10n ** BigInt(quoteScale + 12), from: '@faucet' }),
        'deposit',
      );
    }
    this.ids = new Array<string | undefined>(flow.orderCount);
    this.engine = e;
  }

  run(flow: Flow): Map<string, number> {
    const e = this.engine;
    const { kind, side, orderId, user, price, qty, length } = flow;
    const users = this.users;
    const ids = this.ids;
    const rejects = new Map<string, number>();
    for (let i = 0; i < length; i++) {
      const k = kind[i];
      const ts = T0 + i;
      let r: CommandResult;
      if (k === PLACE) {
        const cmd: Command = {
          type: 'placeOrder',
          ts,
          userId: users[user[i] as number] as string,
          symbol: SYMBOL,
          side: SIDES[side[i] as number] as Side,
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: price[i] as bigint,
          quantity: qty[i] as bigint,
        };
        r = e.execute(cmd);
        ids[orderId[i] as number] = r.order?.orderId;
      } else if (k === CANCEL) {
        r = e.execute({ type: 'cancelOrder', ts, userId: users[user[i] as number] as string, orderId: ids[orderId[i] as number] ?? '?' });
      } else if (k === MARKET) {
        r = e.execute({
          type: 'placeOrder',
          ts,
          userId: users[user[i] as number] as string,
          symbol: SYMBOL,
          side: SIDES[side[i] as number] as Side,
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity: qty[i] as bigint,
        });
      } else {
        throw new Error(`unknown command kind ${k}`);
      }
      if (r.code !== 'ok') rejects.set(r.code, (rejects.get(r.code) ?? 0) + 1);
    }
    return rejects;
  }

  depth(levels: number): BookLevels {
    const d = this.engine.depth(SYMBOL, levels);
    return { bids: d.bids.map((l) => [l.price, l.quantity]), asks: d.asks.map((l) => [l.price, l.quantity]) };
  }
}
