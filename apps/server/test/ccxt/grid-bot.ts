/**
 * A grid bot written for Binance: CCXT's `binance` class unchanged, only its `urls` pointed at
 * this exchange (ccxt-urls.ts). It quotes `levels` limit BUYs below the mid price and `levels` limit SELLs above it,
 * `stepBps` apart, and re-quotes on fills: when a BUY fills it places a SELL one step above its price, when a SELL
 * fills a BUY one step below. It polls its open orders (GET /api/v3/openOrders) and asks for each order that left
 * the list (GET /api/v3/order) whether it filled. At the start it market-buys the base coin the SELL side needs when
 * the account lacks it; at the end it cancels its own open orders (DELETE /api/v3/order). Every error is counted
 * and the run goes on; `scripts/grid-bot.ts` runs it from the command line and exits non-zero on any error.
 * Prices are whole ticks (bigint) computed from CCXT's decimal strings: no floating point in the price grid.
 */
import ccxt from 'ccxt';
import type { Exchange, Market, Order } from 'ccxt';
import { formatDecimal, parseDec, rescale } from '@exchange/money';
import { binanceUrls } from './ccxt-urls';

/** Settings of one run. */
export interface GridBotOptions {
  /** the exchange's HTTP base, e.g. "http://127.0.0.1:8080" */
  base: string;
  apiKey: string;
  secret: string;
  /** CCXT symbol of a spot market (default BTC/USDT) */
  symbol?: string;
  /** orders on each side (default 5) */
  levels?: number;
  /** distance between levels in basis points of the mid price (default 10 = 0.1%); at least one tick */
  stepBps?: number;
  /** base amount of each order as a decimal string (default: the market's smallest amount worth 2x its minimum notional) */
  amount?: string;
  /** how long to run, ms (default 5 minutes) */
  durationMs?: number;
  /** time between two polls of the open orders, ms (default 1000) */
  pollMs?: number;
  /** progress lines (default console.log) */
  log?: (line: string) => void;
}

/** What a run did. */
export interface GridBotReport {
  /** limit orders placed (the first grid and every re-quote) */
  placed: number;
  /** orders seen filled */
  fills: number;
  /** orders placed because another filled (placed, not skipped) */
  requotes: number;
  /** re-quotes left out because they would have crossed one of the bot's own orders (self-trade prevention would
   * expire them): the grid's level is then held by that order */
  skipped: number;
  /** open orders cancelled at the end */
  cancelled: number;
  /** market orders that bought the SELL side's base at the start */
  inventoryBuys: number;
  /** every error (method: message) */
  errors: string[];
  /** the mid price the grid was built around, and the step, as decimal strings */
  mid: string;
  step: string;
}

/** Decimals of a CCXT tick size (TICK_SIZE precision mode: 0.01 -> 2). */
function decimalsOf(tick: number): number {
  const s = tick.toString();
  const exp = /e-([0-9]+)$/.exec(s);
  if (exp) return Number(exp[1]) + (s.split('e')[0]!.split('.')[1]?.length ?? 0);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

/** Runs the grid bot for `durationMs`; resolves with its counts (it never throws for an exchange error). */
export async function runGridBot(opts: GridBotOptions): Promise<GridBotReport> {
  const symbol = opts.symbol ?? 'BTC/USDT';
  const levels = opts.levels ?? 5;
  const log = opts.log ?? ((line: string) => console.log(line));
  const report: GridBotReport = { placed: 0, fills: 0, requotes: 0, skipped: 0, cancelled: 0, inventoryBuys: 0, errors: [], mid: '', step: '' };
  const ex: Exchange = new ccxt.binance({ apiKey: opts.apiKey, secret: opts.secret, urls: binanceUrls(opts.base) });
  const attempt = async <T>(what: string, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (e) {
      const line = `${what}: ${e instanceof Error ? `${e.constructor.name} ${e.message}` : String(e)}`;
      report.errors.push(line);
      log(`error ${line}`);
      return undefined;
    }
  };

  const markets = await attempt('loadMarkets', () => ex.loadMarkets());
  const market: Market | undefined = markets?.[symbol];
  if (!market) {
    if (markets) report.errors.push(`loadMarkets: no market ${symbol}`);
    return report;
  }
  const pd = decimalsOf(market.precision.price!);
  const qd = decimalsOf(market.precision.amount!);
  const book = await attempt('fetchOrderBook', () => ex.fetchOrderBook(symbol, 5));
  if (!book) return report;
  const bid = book.bids[0]?.[0];
  const ask = book.asks[0]?.[0];
  let midTicks: bigint;
  if (bid !== undefined && ask !== undefined) {
    const bidTicks = rescale(parseDec(ex.priceToPrecision(symbol, bid) ?? '0'), pd, 'down').units;
    const askTicks = rescale(parseDec(ex.priceToPrecision(symbol, ask) ?? '0'), pd, 'down').units;
    midTicks = (bidTicks + askTicks) / 2n;
  } else {
    const tk = await attempt('fetchTicker', () => ex.fetchTicker(symbol));
    if (tk?.last === undefined) {
      report.errors.push(`no price for ${symbol}: empty book and no last trade`);
      return report;
    }
    midTicks = rescale(parseDec(ex.priceToPrecision(symbol, tk.last) ?? '0'), pd, 'down').units;
  }
  let step = (midTicks * BigInt(opts.stepBps ?? 10)) / 10_000n;
  if (step < 1n) step = 1n;
  report.mid = formatDecimal(midTicks, pd);
  report.step = formatDecimal(step, pd);
  let amount = opts.amount;
  if (amount === undefined) {
    // Twice the minimum notional at the mid, rounded up to the amount step.
    const minCost = rescale(parseDec(String(market.limits.cost?.min ?? 0)), pd + qd, 'down').units;
    const q = (2n * minCost + midTicks - 1n) / midTicks;
    amount = formatDecimal(q < 1n ? 1n : q, qd);
  }
  const amountUnits = rescale(parseDec(amount), qd, 'down').units;
  log(`grid ${symbol}: mid ${report.mid}, step ${report.step}, ${levels} levels a side of ${amount} ${market.base}`);

  // The SELL side needs levels x amount of the base coin: buy what is missing at the market.
  const balance = await attempt('fetchBalance', () => ex.fetchBalance());
  const have = rescale(parseDec(String(balance?.[market.base]?.free ?? 0)), qd, 'down').units;
  // 1% more than is missing: the taker fee is taken from the coin bought.
  const missing = amountUnits * BigInt(levels) - have;
  const need = (missing * 101n + 99n) / 100n;
  if (balance && missing > 0n) {
    const bought = await attempt('createOrder market buy', () => ex.createOrder(symbol, 'market', 'buy', Number(formatDecimal(need, qd))));
    if (bought) report.inventoryBuys++;
  }

  const tracked = new Map<string, { side: 'buy' | 'sell'; price: bigint }>();
  let seq = 0;
  /** True when a `side` order at `price` would trade with one of the bot's own resting orders. */
  const crossesOwn = (side: 'buy' | 'sell', price: bigint): boolean =>
    [...tracked.values()].some((o) => o.side !== side && (side === 'buy' ? price >= o.price : price <= o.price));
  const place = async (side: 'buy' | 'sell', price: bigint): Promise<boolean> => {
    if (price <= 0n) return false;
    if (crossesOwn(side, price)) {
      report.skipped++;
      return false;
    }
    const clientOrderId = `grid-${Date.now().toString(36)}-${seq++}`;
    const o: Order | undefined = await attempt(`createOrder ${side} ${formatDecimal(price, pd)}`, () =>
      ex.createOrder(symbol, 'limit', side, Number(amount), Number(formatDecimal(price, pd)), { clientOrderId }),
    );
    if (!o) return false;
    report.placed++;
    if (o.clientOrderId !== clientOrderId) report.errors.push(`createOrder: clientOrderId ${o.clientOrderId} != ${clientOrderId}`);
    if (o.status === 'closed') {
      report.fills++;
      if (await place(side === 'buy' ? 'sell' : 'buy', side === 'buy' ? price + step : price - step)) report.requotes++;
    } else tracked.set(o.id ?? '', { side, price });
    return true;
  };
  for (let k = 1n; k <= BigInt(levels); k++) {
    await place('buy', midTicks - k * step);
    await place('sell', midTicks + k * step);
  }

  const end = Date.now() + (opts.durationMs ?? 5 * 60_000);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(opts.pollMs ?? 1000, Math.max(0, end - Date.now()))));
    const open = await attempt('fetchOpenOrders', () => ex.fetchOpenOrders(symbol));
    if (!open) continue;
    const openIds = new Set(open.map((o) => o.id ?? ''));
    for (const [id, q] of [...tracked]) {
      if (openIds.has(id)) continue;
      const o = await attempt('fetchOrder', () => ex.fetchOrder(id, symbol));
      if (!o) continue;
      tracked.delete(id);
      if (o.status !== 'closed') {
        report.errors.push(`order ${id} left the book as ${o.status}, not filled`);
        continue;
      }
      report.fills++;
      log(`filled ${q.side} ${o.filled} at ${formatDecimal(q.price, pd)}; re-quoting`);
      if (q.side === 'buy' ? await place('sell', q.price + step) : await place('buy', q.price - step)) report.requotes++;
    }
  }
  // Its own orders still open (not cancelAllOrders: the account may have others in the market). One may fill between
  // the list and its cancel: Binance's -2011 (OrderNotFound) then, which is no error.
  const open = await attempt('fetchOpenOrders', () => ex.fetchOpenOrders(symbol));
  const openIds = new Set((open ?? []).map((o) => o.id ?? ''));
  for (const id of tracked.keys()) {
    if (!openIds.has(id)) continue;
    try {
      await ex.cancelOrder(id, symbol);
      report.cancelled++;
    } catch (e) {
      if (!(e instanceof ccxt.OrderNotFound)) report.errors.push(`cancelOrder: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  log(
    `grid ${symbol}: ${report.placed} placed, ${report.fills} filled, ${report.requotes} re-quotes (${report.skipped} left out: own order at that price), ${report.cancelled} cancelled at the end, ${report.errors.length} errors`,
  );
  return report;
}
