/**
 * Local stand-ins of exchanges' public spot APIs for the offline tests of the live index: an HTTP server and a
 * WebSocket server on one port each, speaking the exchange's real REST and stream formats, which CCXT Pro's own
 * exchange classes then read with only their urls pointed here.
 *
 * The price tape is real: the Binance BTCUSDT trade messages of fixtures/binance-btcusdt-trades.jsonl (300 messages
 * of 2024-08-09 00:00:01-06 UTC from nkaz001/hftbacktest's capture, MIT; see fixtures/NOTICE). Binance's stream
 * replays those messages themselves, their times moved to now; the others publish the same tape in their own
 * documented shapes (OKX v5 `tickers`, Bybit v5 `tickers`, Coinbase `ticker`, Kraken v2 `ticker`, KuCoin
 * `/market/snapshot`, Gate `spot.tickers`, Bitget `ticker`, HTX gzip-framed `market.<symbol>.detail`), each at its own
 * offset from Binance's price. MEXC is REST only: CCXT watches its protobuf bookTicker, which has no last price.
 * `multiplierBps` makes one exchange spike (12000 = +20%); `silence()` stops its stream and answers its REST 503.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { formatDecimal } from '@exchange/core';
import { toUnits } from '../../platform/shared/decimal';

/** One recorded Binance trade message (the `data` of a `btcusdt@trade` combined-stream envelope). */
export interface BinanceTrade {
  e: 'trade';
  E: number;
  s: string;
  t: number;
  p: string;
  q: string;
  T: number;
  m: boolean;
  M: boolean;
}

/** The recorded tape, oldest first. */
export function loadBinanceTape(): BinanceTrade[] {
  const file = fileURLToPath(new URL('./fixtures/binance-btcusdt-trades.jsonl', import.meta.url));
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { data: BinanceTrade }).data);
}

/** The ten exchanges of DEFAULT_INDEX_EXCHANGES, in CCXT Pro ids. */
export type FakeExchangeId = 'binance' | 'okx' | 'bybit' | 'coinbase' | 'kraken' | 'kucoin' | 'gate' | 'bitget' | 'mexc' | 'htx';

/** A running fake exchange. */
export interface FakeExchange {
  readonly id: FakeExchangeId;
  readonly httpUrl: string;
  readonly wsUrl: string;
  /** The CCXT constructor overrides that point the exchange class here. */
  readonly ccxtOverrides: Record<string, unknown>;
  /** Price multiplier in basis points (10000 = the tape's price). */
  multiplierBps: bigint;
  /** The price the exchange published last (decimal string), null before the first. */
  lastPrice: string | null;
  /** Messages pushed on the stream so far; REST requests answered. */
  readonly counts: { pushed: number; rest: number };
  /** Stops the stream (and, unless `restToo` is false, answers REST 503) until called with false. */
  silence(on: boolean, restToo?: boolean): void;
  /** Keeps publishing the current tape message instead of moving on (a steady price). */
  hold(on: boolean): void;
  close(): Promise<void>;
}

/** Multiplies a decimal price by bps/10000, exactly, keeping 8 decimals (then trailing zeros as the exchange's 8). */
function scaled(price: string, bps: bigint): string {
  return formatDecimal((toUnits(price, 8) * bps + 5000n) / 10_000n, 8);
}

interface Base {
  server: http.Server;
  wss: WebSocketServer;
  port: number;
}

async function listen(onRequest: http.RequestListener): Promise<Base> {
  const server = http.createServer(onRequest);
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, wss, port: (server.address() as AddressInfo).port };
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * Starts a fake exchange publishing the tape: one tape message every `stepMs`, looping, times shifted to `now()`.
 * `offsetBps` moves its price from the tape's (10000 = the same); `volume24h` is its 24 h quote volume (its weight);
 * `held` starts it holding the tape's first message (a known price from the start).
 */
export async function startFakeExchange(
  id: FakeExchange['id'],
  opts: { tape: readonly BinanceTrade[]; stepMs: number; offsetBps?: bigint; volume24h: string; now?: () => number; held?: boolean },
): Promise<FakeExchange> {
  const now = opts.now ?? Date.now;
  const proto: Protocol | undefined = id in PROTOCOLS ? PROTOCOLS[id as keyof typeof PROTOCOLS] : undefined;
  const sockets = new Set<FakeSocket>();
  let silent = false;
  let restDown = false;
  let held = opts.held ?? false;
  let i = 0;
  const counts = { pushed: 0, rest: 0 };
  const priceOf = (t: BinanceTrade) => scaled(scaled(t.p, opts.offsetBps ?? 10_000n), fake.multiplierBps);
  const current = () => opts.tape[(i + opts.tape.length - 1) % opts.tape.length] as BinanceTrade;
  const wsUrlOf = () => `ws://127.0.0.1:${base.port}`;
  const base = await listen((req, res) => {
    counts.rest += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    if (restDown) return json(res, 503, { code: -1, msg: 'Service unavailable' });
    const t = current();
    const price = priceOf(t);
    const ts = now();
    if (proto) {
      const answer = proto.rest(url, req.method ?? 'GET', { price, volume24h: opts.volume24h, ts, seq: i }, wsUrlOf());
      if (answer !== undefined) return json(res, 200, answer);
    } else if (id === 'binance') {
      if (url.pathname === '/api/v3/exchangeInfo') return json(res, 200, binanceExchangeInfo(ts));
      if (url.pathname === '/api/v3/ticker/24hr') return json(res, 200, binanceTicker24h(price, opts.volume24h, ts));
    } else if (id === 'okx') {
      if (url.pathname === '/api/v5/public/instruments')
        return json(res, 200, { code: '0', msg: '', data: url.searchParams.get('instType') === 'SPOT' ? [OKX_INSTRUMENT] : [] });
      if (url.pathname === '/api/v5/market/ticker') return json(res, 200, { code: '0', msg: '', data: [okxTicker(price, opts.volume24h, ts)] });
    } else if (id === 'bybit') {
      if (url.pathname === '/v5/market/instruments-info') {
        const spot = url.searchParams.get('category') === 'spot';
        return json(res, 200, {
          retCode: 0,
          retMsg: 'OK',
          result: { category: url.searchParams.get('category'), list: spot ? [BYBIT_INSTRUMENT] : [], nextPageCursor: '' },
          retExtInfo: {},
          time: ts,
        });
      }
      if (url.pathname === '/v5/market/tickers') {
        return json(res, 200, { retCode: 0, retMsg: 'OK', result: { category: 'spot', list: [bybitTicker(price, opts.volume24h)] }, retExtInfo: {}, time: ts });
      }
    }
    json(res, 404, { code: -1, msg: `no route ${url.pathname}` });
  });
  base.wss.on('connection', (ws: FakeSocket, req) => {
    sockets.add(ws);
    ws.path = req.url ?? '/';
    ws.topics = new Set();
    ws.on('close', () => sockets.delete(ws));
    proto?.open?.(ws, now());
    ws.on('message', (raw) => {
      const text = String(raw);
      if (proto) return proto.message(ws, text, now());
      if (text === 'ping') return ws.send('pong');
      const msg = JSON.parse(text) as Record<string, unknown>;
      if (id === 'binance' && msg.method === 'SUBSCRIBE') {
        (ws as WebSocket & { streams?: string[] }).streams = msg.params as string[];
        ws.send(JSON.stringify({ result: null, id: msg.id }));
      } else if (id === 'okx' && msg.op === 'subscribe') {
        for (const arg of msg.args as unknown[]) ws.send(JSON.stringify({ event: 'subscribe', arg, connId: 'a4d3ae55' }));
      } else if (id === 'bybit' && msg.op === 'subscribe') {
        ws.send(JSON.stringify({ success: true, ret_msg: 'subscribe', conn_id: 'e0e10eee-4eff-4d21-881e-a0c55c25e2da', req_id: msg.req_id, op: 'subscribe' }));
      } else if (id === 'bybit' && msg.op === 'ping') {
        ws.send(JSON.stringify({ success: true, ret_msg: 'pong', conn_id: 'e0e10eee', req_id: msg.req_id, op: 'ping' }));
      }
    });
  });
  const push = () => {
    if (held && i > 0) i -= 1;
    const t = opts.tape[i % opts.tape.length] as BinanceTrade;
    i += 1;
    if (silent) return;
    const ts = now();
    const price = priceOf(t);
    fake.lastPrice = price;
    for (const ws of sockets) {
      if (proto) {
        if (proto.push(ws, { price, volume24h: opts.volume24h, ts, seq: i })) counts.pushed += 1;
        continue;
      }
      if (id === 'binance') {
        const streams = (ws as WebSocket & { streams?: string[] }).streams ?? [];
        // The recorded message itself, its times moved to now (and its price only when a test multiplies it).
        if (streams.includes('btcusdt@trade')) ws.send(JSON.stringify({ ...t, E: ts, T: ts - 1, p: price }));
        if (streams.includes('btcusdt@ticker')) ws.send(JSON.stringify(binanceTickerEvent(price, opts.volume24h, ts)));
        if (streams.includes('btcusdt@miniTicker')) ws.send(JSON.stringify(binanceMiniTickerEvent(price, opts.volume24h, ts)));
      } else if (id === 'okx') {
        ws.send(JSON.stringify({ arg: { channel: 'tickers', instId: 'BTC-USDT' }, data: [okxTicker(price, opts.volume24h, ts)] }));
      } else if (id === 'bybit') {
        ws.send(JSON.stringify({ topic: 'tickers.BTCUSDT', ts, type: 'snapshot', cs: 1000 + i, data: bybitTicker(price, opts.volume24h) }));
      }
      counts.pushed += 1;
    }
  };
  const timer = setInterval(push, opts.stepMs);
  const pinger = proto?.serverPing ? setInterval(() => sockets.forEach((ws) => proto.serverPing?.(ws, now())), 5000) : undefined;
  const httpUrl = `http://127.0.0.1:${base.port}`;
  const wsUrl = `ws://127.0.0.1:${base.port}`;
  const ccxtOverrides: Record<string, unknown> = proto
    ? proto.overrides(httpUrl, wsUrl)
    : id === 'binance'
      ? { urls: { api: { public: `${httpUrl}/api/v3`, private: `${httpUrl}/api/v3`, v1: `${httpUrl}/api/v1`, ws: { spot: `${wsUrl}/ws` } } } }
      : id === 'okx'
        ? { urls: { api: { rest: httpUrl, ws: `${wsUrl}/ws/v5` } } }
        : { urls: { api: { public: httpUrl, spot: httpUrl, v2: httpUrl, ws: { public: { spot: `${wsUrl}/v5/public/spot` } } } } };
  const fake: FakeExchange = {
    id,
    httpUrl,
    wsUrl,
    ccxtOverrides,
    multiplierBps: 10_000n,
    lastPrice: null,
    counts,
    silence(on, restToo = true) {
      silent = on;
      restDown = on && restToo;
    },
    hold(on) {
      held = on;
    },
    async close() {
      clearInterval(timer);
      clearInterval(pinger);
      for (const ws of sockets) ws.terminate();
      base.wss.close();
      await new Promise<void>((resolve) => base.server.close(() => resolve()));
    },
  };
  return fake;
}

// ---- Binance spot (developers.binance.com: GET /api/v3/exchangeInfo, GET /api/v3/ticker/24hr, <symbol>@ticker) ----

function binanceExchangeInfo(ts: number) {
  return {
    timezone: 'UTC',
    serverTime: ts,
    rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 }],
    exchangeFilters: [],
    symbols: [
      {
        symbol: 'BTCUSDT',
        status: 'TRADING',
        baseAsset: 'BTC',
        baseAssetPrecision: 8,
        quoteAsset: 'USDT',
        quotePrecision: 8,
        quoteAssetPrecision: 8,
        baseCommissionPrecision: 8,
        quoteCommissionPrecision: 8,
        orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'],
        icebergAllowed: true,
        ocoAllowed: true,
        quoteOrderQtyMarketAllowed: true,
        allowTrailingStop: true,
        cancelReplaceAllowed: true,
        isSpotTradingAllowed: true,
        isMarginTradingAllowed: true,
        filters: [
          { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
          { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
          {
            filterType: 'NOTIONAL',
            minNotional: '5.00000000',
            applyMinToMarket: true,
            maxNotional: '9000000.00000000',
            applyMaxToMarket: false,
            avgPriceMins: 5,
          },
        ],
        permissions: [],
        permissionSets: [['SPOT', 'MARGIN']],
        defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
        allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
      },
    ],
  };
}

function binanceTicker24h(price: string, quoteVolume: string, ts: number) {
  return {
    symbol: 'BTCUSDT',
    priceChange: '0.00000000',
    priceChangePercent: '0.000',
    weightedAvgPrice: price,
    prevClosePrice: price,
    lastPrice: price,
    lastQty: '0.00100000',
    bidPrice: price,
    bidQty: '1.00000000',
    askPrice: price,
    askQty: '1.00000000',
    openPrice: price,
    highPrice: price,
    lowPrice: price,
    volume: '10000.00000000',
    quoteVolume,
    openTime: ts - 86_400_000,
    closeTime: ts,
    firstId: 3735000000,
    lastId: 3735693315,
    count: 693316,
  };
}

function binanceTickerEvent(price: string, quoteVolume: string, ts: number) {
  const t = binanceTicker24h(price, quoteVolume, ts);
  return {
    e: '24hrTicker',
    E: ts,
    s: 'BTCUSDT',
    p: t.priceChange,
    P: t.priceChangePercent,
    w: price,
    x: price,
    c: price,
    Q: t.lastQty,
    b: price,
    B: '1.00000000',
    a: price,
    A: '1.00000000',
    o: price,
    h: price,
    l: price,
    v: t.volume,
    q: quoteVolume,
    O: t.openTime,
    C: ts,
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}

/** The `<symbol>@miniTicker` event (CCXT's watchTicker subscribes this one on spot). */
function binanceMiniTickerEvent(price: string, quoteVolume: string, ts: number) {
  return { e: '24hrMiniTicker', E: ts, s: 'BTCUSDT', c: price, o: price, h: price, l: price, v: '10000.00000000', q: quoteVolume };
}

// ---- OKX v5 (www.okx.com/docs-v5: GET /api/v5/public/instruments, GET /api/v5/market/ticker, the tickers channel) ----

const OKX_INSTRUMENT = {
  alias: '',
  baseCcy: 'BTC',
  category: '1',
  ctMult: '',
  ctType: '',
  ctVal: '',
  ctValCcy: '',
  expTime: '',
  instFamily: '',
  instId: 'BTC-USDT',
  instType: 'SPOT',
  lever: '10',
  listTime: '1548133413000',
  lotSz: '0.00000001',
  maxIcebergSz: '9999999999.0000000000000000',
  maxLmtAmt: '1000000',
  maxLmtSz: '9999999999',
  maxMktAmt: '1000000',
  maxMktSz: '',
  maxStopSz: '',
  maxTriggerSz: '9999999999.0000000000000000',
  maxTwapSz: '9999999999.0000000000000000',
  minSz: '0.00001',
  optType: '',
  quoteCcy: 'USDT',
  settleCcy: '',
  state: 'live',
  stk: '',
  tickSz: '0.1',
  uly: '',
};

function okxTicker(price: string, volCcy24h: string, ts: number) {
  return {
    instType: 'SPOT',
    instId: 'BTC-USDT',
    last: price,
    lastSz: '0.001',
    askPx: price,
    askSz: '1',
    bidPx: price,
    bidSz: '1',
    open24h: price,
    high24h: price,
    low24h: price,
    volCcy24h,
    vol24h: '10000',
    sodUtc0: price,
    sodUtc8: price,
    ts: String(ts),
  };
}

// ---- Bybit v5 (bybit-exchange.github.io/docs/v5: GET /v5/market/instruments-info, GET /v5/market/tickers, tickers.<symbol>) ----

const BYBIT_INSTRUMENT = {
  symbol: 'BTCUSDT',
  baseCoin: 'BTC',
  quoteCoin: 'USDT',
  innovation: '0',
  status: 'Trading',
  marginTrading: 'both',
  stTag: '0',
  lotSizeFilter: {
    basePrecision: '0.000001',
    quotePrecision: '0.00000001',
    minOrderQty: '0.000048',
    maxOrderQty: '71.73956243',
    minOrderAmt: '1',
    maxOrderAmt: '2000000',
  },
  priceFilter: { tickSize: '0.01' },
  riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
};

function bybitTicker(price: string, turnover24h: string) {
  return {
    symbol: 'BTCUSDT',
    bid1Price: price,
    bid1Size: '1',
    ask1Price: price,
    ask1Size: '1',
    lastPrice: price,
    prevPrice24h: price,
    price24hPcnt: '0',
    highPrice24h: price,
    lowPrice24h: price,
    turnover24h,
    volume24h: '10000',
    usdIndexPrice: price,
  };
}

// ---- The other seven exchanges of DEFAULT_INDEX_EXCHANGES, each a protocol over the same server ----

/** A fake's socket: the path it connected to and the topics it subscribed. */
type FakeSocket = WebSocket & { path?: string; topics?: Set<string> };

/** What one exchange publishes at a moment: its price (decimal string), 24 h quote volume, the time (Unix ms), a sequence. */
interface Quote {
  price: string;
  volume24h: string;
  ts: number;
  seq: number;
}

/**
 * One exchange's public spot API as CCXT Pro reads it: `rest` answers a path (undefined = 404), `message` answers a
 * client frame, `push` sends the ticker to a socket that subscribed it (false when it did not), `overrides` points
 * CCXT's urls here; `open` greets a new socket and `serverPing` pings it every 5 s where the exchange does.
 */
interface Protocol {
  rest(url: URL, method: string, q: Quote, wsUrl: string): unknown;
  open?(ws: FakeSocket, ts: number): void;
  message(ws: FakeSocket, text: string, ts: number): void;
  push(ws: FakeSocket, q: Quote): boolean;
  serverPing?(ws: FakeSocket, ts: number): void;
  overrides(httpUrl: string, wsUrl: string): Record<string, unknown>;
}

/**
 * The reference price of the base volumes: an exchange's 24 h base volume is published as volume24h / 60000 (exact,
 * 8 decimals), and Kraken's 24 h vwap as 60000, so that Kraken's volume x vwap (CCXT's quote volume) is volume24h exactly.
 */
const REF_PRICE = 60_000n;

/** volume24h / REF_PRICE at 8 decimals; throws RangeError when not exact (the test's volumes are multiples of it). */
function baseVolumeOf(quoteVolume: string): string {
  const units = toUnits(quoteVolume, 8);
  if (units % REF_PRICE !== 0n) throw new RangeError(`volume ${quoteVolume} is not a multiple of ${REF_PRICE} at 8 decimals`);
  return formatDecimal(units / REF_PRICE, 8);
}

/**
 * The 24 h quote volume a client derives from what exchange `id` publishes at `price`: volume24h itself, except
 * Coinbase, whose ticker gives only the base volume (CCXT's quoteVolume undefined): base x price, half up at 8
 * decimals, as ccxt-source.ts's quoteVolumeOf computes it.
 */
export function derivedQuoteVolume(id: FakeExchangeId, volume24h: string, price: string): string {
  if (id !== 'coinbase') return volume24h;
  return formatDecimal((toUnits(baseVolumeOf(volume24h), 8) * toUnits(price, 8) + 50_000_000n) / 100_000_000n, 8);
}

/** JSON with the fields named in `numbers` written as JSON numbers (the decimal string's own digits, no float). */
function jsonWithNumbers(body: unknown, numbers: readonly string[]): string {
  return JSON.stringify(body, (key, value: unknown) => (numbers.includes(key) && typeof value === 'string' ? `~number~${value}~` : value)).replace(
    /"~number~([0-9.]+)~"/g,
    '$1',
  );
}

const iso = (ts: number) => new Date(ts).toISOString();
const send = (ws: FakeSocket, body: unknown) => ws.send(typeof body === 'string' ? body : JSON.stringify(body));

// Coinbase Advanced Trade (docs.cdp.coinbase.com/advanced-trade: GET /api/v3/brokerage/market/products,
// .../market/products/{id}/ticker, the `ticker` channel; the v2 currencies and exchange-rates CCXT loads first).
const coinbase: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    if (p === '/v2/currencies') return { data: [{ id: 'USD', name: 'US Dollar', min_size: '0.01' }] };
    if (p === '/v2/currencies/crypto') {
      return {
        data: [
          {
            asset_id: '5b71fc48-3dd3-540c-809b-f8c94d0e68b5',
            code: 'BTC',
            name: 'Bitcoin',
            color: '#F7931A',
            sort_index: 100,
            exponent: 8,
            type: 'crypto',
            address_regex:
              '^([13][a-km-zA-HJ-NP-Z1-9]{25,34})|^(bc1[qzry9x8gf2tvdw0s3jn54khce6mua7l]([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}|[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}))$',
          },
          {
            asset_id: 'b26327c1-9a32-5c1e-bc0b-9ae3e7dcf5cc',
            code: 'USDT',
            name: 'Tether',
            color: '#22A079',
            sort_index: 120,
            exponent: 6,
            type: 'crypto',
            address_regex: '^(?:0x)?[0-9a-fA-F]{40}$',
          },
        ],
      };
    }
    if (p === '/v2/exchange-rates') return { data: { currency: 'USD', rates: { BTC: '0.0000162', USDT: '1.0005' } } };
    if (p === '/api/v3/brokerage/market/products') {
      const spot = url.searchParams.get('product_type') === null;
      return { products: spot ? [coinbaseProduct(q)] : [], num_products: spot ? 1 : 0 };
    }
    if (p === '/api/v3/brokerage/market/products/BTC-USDT/ticker') {
      return {
        trades: [
          { trade_id: String(90_000_000 + q.seq), product_id: 'BTC-USDT', price: q.price, size: '0.001', time: iso(q.ts), side: 'BUY', bid: '', ask: '' },
        ],
        best_bid: q.price,
        best_ask: q.price,
      };
    }
    return undefined;
  },
  message(ws, text, ts) {
    const msg = JSON.parse(text) as { type?: string; channel?: string; product_ids?: string[] };
    if (msg.type !== 'subscribe' || !msg.channel) return;
    for (const id of msg.product_ids ?? []) ws.topics?.add(`${msg.channel}:${id}`);
    send(ws, { channel: 'subscriptions', client_id: '', timestamp: iso(ts), sequence_num: 0, events: [{ subscriptions: { [msg.channel]: msg.product_ids } }] });
  },
  push(ws, q) {
    if (!ws.topics?.has('ticker:BTC-USDT')) return false;
    const ticker = {
      type: 'ticker',
      product_id: 'BTC-USDT',
      price: q.price,
      volume_24_h: baseVolumeOf(q.volume24h),
      low_24_h: q.price,
      high_24_h: q.price,
      low_52_w: '49000',
      high_52_w: '73750',
      price_percent_chg_24_h: '0',
      best_bid: q.price,
      best_bid_quantity: '0.5',
      best_ask: q.price,
      best_ask_quantity: '0.5',
    };
    send(ws, { channel: 'ticker', client_id: '', timestamp: iso(q.ts), sequence_num: q.seq, events: [{ type: 'update', tickers: [ticker] }] });
    return true;
  },
  overrides: (httpUrl, wsUrl) => ({ urls: { api: { rest: httpUrl, ws: wsUrl } } }),
};

function coinbaseProduct(q: Quote) {
  return {
    product_id: 'BTC-USDT',
    price: q.price,
    price_percentage_change_24h: '0',
    volume_24h: baseVolumeOf(q.volume24h),
    volume_percentage_change_24h: '0',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    quote_min_size: '1',
    quote_max_size: '150000000',
    base_min_size: '0.00000001',
    base_max_size: '3400',
    base_name: 'Bitcoin',
    quote_name: 'Tether',
    watched: false,
    is_disabled: false,
    new: false,
    status: 'online',
    cancel_only: false,
    limit_only: false,
    post_only: false,
    trading_disabled: false,
    auction_mode: false,
    product_type: 'SPOT',
    quote_currency_id: 'USDT',
    base_currency_id: 'BTC',
    fcm_trading_session_details: null,
    mid_market_price: '',
    alias: '',
    alias_to: [],
    base_display_symbol: 'BTC',
    quote_display_symbol: 'USDT',
    view_only: false,
    price_increment: '0.01',
    display_name: 'BTC-USDT',
    product_venue: 'CBE',
  };
}

// Kraken (docs.kraken.com: GET /0/public/Assets, /0/public/AssetPairs, /0/public/Ticker; WebSocket v2 `ticker`,
// whose numbers are JSON numbers; the v2 `ping` method).
const kraken: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    if (p === '/0/public/Assets') {
      return {
        error: [],
        result: {
          XXBT: { aclass: 'currency', altname: 'XBT', decimals: 10, display_decimals: 5, collateral_value: 1, status: 'enabled' },
          USDT: { aclass: 'currency', altname: 'USDT', decimals: 8, display_decimals: 4, collateral_value: 1, status: 'enabled' },
        },
      };
    }
    if (p === '/0/public/AssetPairs') {
      return {
        error: [],
        result: {
          XBTUSDT: {
            altname: 'XBTUSDT',
            wsname: 'XBT/USDT',
            aclass_base: 'currency',
            base: 'XXBT',
            aclass_quote: 'currency',
            quote: 'USDT',
            lot: 'unit',
            cost_decimals: 5,
            pair_decimals: 1,
            lot_decimals: 8,
            lot_multiplier: 1,
            leverage_buy: [2, 3],
            leverage_sell: [2, 3],
            fees: [[0, 0.4]],
            fees_maker: [[0, 0.25]],
            fee_volume_currency: 'ZUSD',
            margin_call: 80,
            margin_stop: 40,
            ordermin: '0.00005',
            costmin: '0.5',
            tick_size: '0.1',
            status: 'online',
          },
        },
      };
    }
    if (p === '/0/public/Ticker' && url.searchParams.get('pair') === 'XBTUSDT') {
      const v = baseVolumeOf(q.volume24h);
      return {
        error: [],
        result: {
          XBTUSDT: {
            a: [q.price, '1', '1.000'],
            b: [q.price, '1', '1.000'],
            c: [q.price, '0.00100000'],
            v: [v, v],
            p: [formatDecimal(REF_PRICE, 0), formatDecimal(REF_PRICE, 0)],
            t: [20_000, 20_000],
            l: [q.price, q.price],
            h: [q.price, q.price],
            o: q.price,
          },
        },
      };
    }
    return undefined;
  },
  open(ws) {
    send(ws, {
      channel: 'status',
      type: 'update',
      data: [{ api_version: 'v2', connection_id: 8_628_615_390_848_610_000, system: 'online', version: '2.0.10' }],
    });
  },
  message(ws, text, ts) {
    const msg = JSON.parse(text) as { method?: string; params?: { channel?: string; symbol?: string[] }; req_id?: number };
    if (msg.method === 'ping') return send(ws, { method: 'pong', req_id: msg.req_id, time_in: iso(ts), time_out: iso(ts) });
    if (msg.method !== 'subscribe' || !msg.params?.channel) return;
    for (const symbol of msg.params.symbol ?? []) {
      ws.topics?.add(`${msg.params.channel}:${symbol}`);
      send(ws, {
        method: 'subscribe',
        result: { channel: msg.params.channel, snapshot: true, symbol },
        success: true,
        time_in: iso(ts),
        time_out: iso(ts),
        req_id: msg.req_id,
      });
    }
  },
  push(ws, q) {
    if (!ws.topics?.has('ticker:BTC/USDT')) return false;
    const data = {
      symbol: 'BTC/USDT',
      bid: q.price,
      bid_qty: '0.5',
      ask: q.price,
      ask_qty: '0.5',
      last: q.price,
      volume: baseVolumeOf(q.volume24h),
      vwap: formatDecimal(REF_PRICE, 0),
      low: q.price,
      high: q.price,
      change: '0',
      change_pct: '0',
    };
    const numbers = ['bid', 'bid_qty', 'ask', 'ask_qty', 'last', 'volume', 'vwap', 'low', 'high', 'change', 'change_pct'];
    ws.send(jsonWithNumbers({ channel: 'ticker', type: q.seq === 0 ? 'snapshot' : 'update', data: [data] }, numbers));
    return true;
  },
  overrides: (httpUrl, wsUrl) => ({
    urls: { api: { public: httpUrl, private: httpUrl, ws: { public: wsUrl, publicV2: `${wsUrl}/v2`, private: wsUrl, privateV2: `${wsUrl}/v2` } } },
  }),
};

// KuCoin (www.kucoin.com/docs: GET /api/v3/currencies, /api/v2/symbols, /api/v1/market/stats, POST
// /api/v1/bullet-public for the socket's endpoint and ping interval; the `/market/snapshot:<symbol>` topic).
const kucoin: Protocol = {
  rest(url, method, q, wsUrl) {
    const p = url.pathname;
    if (p === '/api/v3/currencies') {
      return {
        code: '200000',
        data: [
          {
            currency: 'BTC',
            name: 'BTC',
            fullName: 'Bitcoin',
            precision: 8,
            confirms: null,
            contractAddress: null,
            isMarginEnabled: true,
            isDebitEnabled: true,
            chains: [],
          },
          {
            currency: 'USDT',
            name: 'USDT',
            fullName: 'Tether',
            precision: 8,
            confirms: null,
            contractAddress: null,
            isMarginEnabled: true,
            isDebitEnabled: true,
            chains: [],
          },
        ],
      };
    }
    if (p === '/api/v2/symbols') {
      return {
        code: '200000',
        data: [
          {
            symbol: 'BTC-USDT',
            name: 'BTC-USDT',
            baseCurrency: 'BTC',
            quoteCurrency: 'USDT',
            feeCurrency: 'USDT',
            market: 'USDS',
            baseMinSize: '0.00001',
            quoteMinSize: '0.1',
            baseMaxSize: '10000000000',
            quoteMaxSize: '99999999',
            baseIncrement: '0.00000001',
            quoteIncrement: '0.000001',
            priceIncrement: '0.1',
            priceLimitRate: '0.1',
            minFunds: '0.1',
            isMarginEnabled: true,
            enableTrading: true,
            feeCategory: 1,
            makerFeeCoefficient: '1.00',
            takerFeeCoefficient: '1.00',
            st: false,
          },
        ],
      };
    }
    if (p === '/api/v1/market/stats' && url.searchParams.get('symbol') === 'BTC-USDT') {
      return {
        code: '200000',
        data: {
          time: q.ts,
          symbol: 'BTC-USDT',
          buy: q.price,
          sell: q.price,
          changeRate: '0',
          changePrice: '0',
          high: q.price,
          low: q.price,
          vol: baseVolumeOf(q.volume24h),
          volValue: q.volume24h,
          last: q.price,
          averagePrice: q.price,
          takerFeeRate: '0.001',
          makerFeeRate: '0.001',
          takerCoefficient: '1',
          makerCoefficient: '1',
        },
      };
    }
    if (p === '/api/v1/bullet-public' && method === 'POST') {
      return {
        code: '200000',
        data: {
          token:
            '2neAiuYvAU61ZDXANAGAsiL4-iAExhsBXZxftpOeh_55i3Ysy2q2LEsEWU64mdzUOPusi34M_wGoSf7iNyEWJ4aBZXpWhrmY9jKtqkdWoFa75w3istPvPtiYB9J6i9GjsxUuhPw3BlrzazF6ghq4L_xQuBHxwD6SX5BrkBGUmqw=.zVBGVn08mbVmKgcIlQmgFQ==',
          instanceServers: [{ endpoint: `${wsUrl}/`, encrypt: true, protocol: 'websocket', pingInterval: 18_000, pingTimeout: 10_000 }],
        },
      };
    }
    return undefined;
  },
  open(ws, ts) {
    send(ws, { id: String(ts), type: 'welcome' });
  },
  message(ws, text) {
    const msg = JSON.parse(text) as { id?: string; type?: string; topic?: string; response?: boolean };
    if (msg.type === 'ping') return send(ws, { id: msg.id, type: 'pong' });
    if (msg.type !== 'subscribe' || !msg.topic) return;
    ws.topics?.add(msg.topic);
    if (msg.response) send(ws, { id: msg.id, type: 'ack' });
  },
  push(ws, q) {
    if (!ws.topics?.has('/market/snapshot:BTC-USDT')) return false;
    const data = {
      averagePrice: q.price,
      baseCurrency: 'BTC',
      board: 1,
      buy: q.price,
      changePrice: '0',
      changeRate: '0',
      close: q.price,
      datetime: q.ts,
      high: q.price,
      lastTradedPrice: q.price,
      low: q.price,
      makerCoefficient: '1',
      makerFeeRate: '0.001',
      marginType: 1,
      mark: 0,
      market: 'USDS',
      markets: ['USDS'],
      open: q.price,
      quoteCurrency: 'USDT',
      sell: q.price,
      sort: 100,
      symbol: 'BTC-USDT',
      symbolCode: 'BTC-USDT',
      takerCoefficient: '1',
      takerFeeRate: '0.001',
      trading: true,
      vol: baseVolumeOf(q.volume24h),
      volValue: q.volume24h,
    };
    const numbers = [
      'averagePrice',
      'buy',
      'changePrice',
      'changeRate',
      'close',
      'high',
      'lastTradedPrice',
      'low',
      'makerCoefficient',
      'makerFeeRate',
      'open',
      'sell',
      'takerCoefficient',
      'takerFeeRate',
      'vol',
      'volValue',
    ];
    ws.send(
      jsonWithNumbers(
        { topic: '/market/snapshot:BTC-USDT', type: 'message', subject: 'trade.snapshot', data: { sequence: String(1_545_896_669_291 + q.seq), data } },
        numbers,
      ),
    );
    return true;
  },
  overrides: (httpUrl) => ({ urls: { api: { public: httpUrl, private: httpUrl, futuresPublic: httpUrl, futuresPrivate: httpUrl } } }),
};

// Gate (www.gate.com/docs/developers/apiv4: GET /api/v4/spot/currencies, /spot/currency_pairs,
// /margin/currency_pairs, /spot/tickers; WebSocket v4 `spot.tickers`).
const gate: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    if (p === '/api/v4/spot/currencies') {
      return ['BTC', 'USDT'].map((currency) => ({
        currency,
        name: currency === 'BTC' ? 'Bitcoin' : 'Tether',
        delisted: false,
        withdraw_disabled: false,
        withdraw_delayed: false,
        deposit_disabled: false,
        trade_disabled: false,
        chain: currency === 'BTC' ? 'BTC' : 'ETH',
        chains: [{ name: currency === 'BTC' ? 'BTC' : 'ETH', addr: '', withdraw_disabled: false, withdraw_delayed: false, deposit_disabled: false }],
      }));
    }
    if (p === '/api/v4/margin/currency_pairs') return [];
    if (p === '/api/v4/spot/currency_pairs') {
      return [
        {
          id: 'BTC_USDT',
          base: 'BTC',
          base_name: 'Bitcoin',
          quote: 'USDT',
          quote_name: 'Tether',
          fee: '0.2',
          min_base_amount: '0.000001',
          min_quote_amount: '3',
          max_base_amount: '10000',
          max_quote_amount: '5000000',
          amount_precision: 6,
          precision: 1,
          trade_status: 'tradable',
          sell_start: 1_516_378_650,
          buy_start: 1_516_378_650,
          delisting_time: 0,
          type: 'normal',
          trade_url: 'https://www.gate.io/trade/BTC_USDT',
          st_tag: false,
        },
      ];
    }
    if (p === '/api/v4/spot/tickers' && url.searchParams.get('currency_pair') === 'BTC_USDT') return [gateTicker(q)];
    return undefined;
  },
  message(ws, text, ts) {
    const msg = JSON.parse(text) as { id?: number; time?: number; channel?: string; event?: string; payload?: string[] };
    if (msg.channel === 'spot.ping') return send(ws, { time: Math.floor(ts / 1000), time_ms: ts, channel: 'spot.pong', event: '', result: null });
    if (msg.event !== 'subscribe' || !msg.channel) return;
    for (const pair of msg.payload ?? []) ws.topics?.add(`${msg.channel}:${pair}`);
    send(ws, {
      time: Math.floor(ts / 1000),
      time_ms: ts,
      id: msg.id,
      conn_id: '8a1e8b9c2d',
      channel: msg.channel,
      event: 'subscribe',
      payload: msg.payload,
      result: { status: 'success' },
      requestId: '8a1e8b9c2d-1',
    });
  },
  push(ws, q) {
    if (!ws.topics?.has('spot.tickers:BTC_USDT')) return false;
    send(ws, { time: Math.floor(q.ts / 1000), time_ms: q.ts, channel: 'spot.tickers', event: 'update', result: gateTicker(q) });
    return true;
  },
  overrides: (httpUrl, wsUrl) => {
    const rest = `${httpUrl}/api/v4`;
    const groups = [
      'wallet',
      'futures',
      'margin',
      'delivery',
      'spot',
      'options',
      'sub_accounts',
      'earn',
      'unified',
      'account',
      'rebate',
      'loan',
      'withdrawals',
      'flash_swap',
      'multi_collateral_loan',
    ];
    const apis = Object.fromEntries(groups.map((g) => [g, rest]));
    return { urls: { api: { public: apis, private: apis, spot: `${wsUrl}/ws/v4/` } } };
  },
};

function gateTicker(q: Quote) {
  return {
    currency_pair: 'BTC_USDT',
    last: q.price,
    lowest_ask: q.price,
    lowest_size: '0.5',
    highest_bid: q.price,
    highest_size: '0.5',
    change_percentage: '0',
    base_volume: baseVolumeOf(q.volume24h),
    quote_volume: q.volume24h,
    high_24h: q.price,
    low_24h: q.price,
  };
}

// Bitget v2 (www.bitget.com/api-doc/spot: GET /api/v2/spot/public/coins, /spot/public/symbols,
// /margin/currencies, /spot/market/tickers; the public socket's `ticker` channel and its text ping).
const bitget: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    const ok = (data: unknown) => ({ code: '00000', msg: 'success', requestTime: q.ts, data });
    if (p === '/api/v2/spot/public/coins') {
      return ok(
        ['BTC', 'USDT'].map((coin, n) => ({
          coinId: String(n + 1),
          coin,
          transfer: 'true',
          chains: [
            {
              chain: coin === 'BTC' ? 'BTC' : 'ERC20',
              needTag: 'false',
              withdrawable: 'true',
              rechargeable: 'true',
              withdrawFee: '0.0001',
              extraWithdrawFee: '0',
              depositConfirm: '1',
              withdrawConfirm: '1',
              minDepositAmount: '0.00001',
              minWithdrawAmount: '0.001',
              browserUrl: '',
              contractAddress: '',
              withdrawStep: '0',
              withdrawMinScale: '8',
              congestion: 'normal',
            },
          ],
        })),
      );
    }
    if (p === '/api/v2/spot/public/symbols') {
      return ok([
        {
          symbol: 'BTCUSDT',
          baseCoin: 'BTC',
          quoteCoin: 'USDT',
          minTradeAmount: '0',
          maxTradeAmount: '900000000000000000000',
          takerFeeRate: '0.001',
          makerFeeRate: '0.001',
          pricePrecision: '2',
          quantityPrecision: '6',
          quotePrecision: '8',
          status: 'online',
          minTradeUSDT: '1',
          buyLimitPriceRatio: '0.05',
          sellLimitPriceRatio: '0.05',
          areaSymbol: 'no',
          orderQuantity: '200',
          openTime: '1532454360000',
          offTime: '',
        },
      ]);
    }
    if (p === '/api/v2/margin/currencies') return ok([]);
    if (p === '/api/v2/spot/market/tickers' && url.searchParams.get('symbol') === 'BTCUSDT') {
      return ok([
        {
          symbol: 'BTCUSDT',
          high24h: q.price,
          open: q.price,
          low24h: q.price,
          lastPr: q.price,
          quoteVolume: q.volume24h,
          baseVolume: baseVolumeOf(q.volume24h),
          usdtVolume: q.volume24h,
          bidPr: q.price,
          askPr: q.price,
          bidSz: '0.5',
          askSz: '0.5',
          openUtc: q.price,
          ts: String(q.ts),
          changeUtc24h: '0',
          change24h: '0',
        },
      ]);
    }
    return undefined;
  },
  message(ws, text) {
    if (text === 'ping') return send(ws, 'pong');
    const msg = JSON.parse(text) as { op?: string; args?: { instType: string; channel: string; instId: string }[] };
    if (msg.op !== 'subscribe') return;
    for (const arg of msg.args ?? []) {
      ws.topics?.add(`${arg.instType}:${arg.channel}:${arg.instId}`);
      send(ws, { event: 'subscribe', arg });
    }
  },
  push(ws, q) {
    if (!ws.topics?.has('SPOT:ticker:BTCUSDT')) return false;
    const data = {
      instId: 'BTCUSDT',
      lastPr: q.price,
      open24h: q.price,
      high24h: q.price,
      low24h: q.price,
      change24h: '0',
      bidPr: q.price,
      askPr: q.price,
      bidSz: '0.5',
      askSz: '0.5',
      baseVolume: baseVolumeOf(q.volume24h),
      quoteVolume: q.volume24h,
      openUtc: q.price,
      changeUtc24h: '0',
      ts: String(q.ts),
    };
    send(ws, { action: 'snapshot', arg: { instType: 'SPOT', channel: 'ticker', instId: 'BTCUSDT' }, data: [data], ts: q.ts });
    return true;
  },
  overrides: (httpUrl, wsUrl) => ({
    urls: {
      api: { spot: httpUrl, mix: httpUrl, margin: httpUrl, common: httpUrl, ws: { public: `${wsUrl}/v2/ws/public`, private: `${wsUrl}/v2/ws/private` } },
    },
  }),
};

// MEXC (mexcdevelop.github.io/apidocs/spot_v3_en: GET /api/v3/exchangeInfo, /api/v3/ticker/24hr; the futures
// /api/v1/contract/detail CCXT also loads). Its spot socket pushes protobuf (PushDataV3ApiWrapper, binary frames) and
// the ticker channel CCXT watches (spot@public.aggre.bookTicker) carries only the best bid and ask, no last price, so
// the live index prices MEXC through its REST ticker. CCXT decodes those frames only with the optional protobufjs
// package, which this repository does not install: each push then fails the watch with NotSupported (as it would in
// production), and the source keeps polling REST. The fake acknowledges the subscription, answers PING and pushes the
// bookTicker frames encoded by hand (mexc-proto's field numbers, as in CCXT's protobuf/mexc/compiled.cjs).
const mexc: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    if (p === '/api/v3/exchangeInfo') {
      return {
        timezone: 'CST',
        serverTime: q.ts,
        rateLimits: [],
        exchangeFilters: [],
        symbols: [
          {
            symbol: 'BTCUSDT',
            status: '1',
            baseAsset: 'BTC',
            baseAssetPrecision: 8,
            quoteAsset: 'USDT',
            quotePrecision: 2,
            quoteAssetPrecision: 2,
            baseCommissionPrecision: 8,
            quoteCommissionPrecision: 2,
            orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
            isSpotTradingAllowed: true,
            isMarginTradingAllowed: false,
            quoteAmountPrecision: '1.000000000000000000000000000000',
            baseSizePrecision: '0.000001',
            permissions: ['SPOT'],
            filters: [],
            maxQuoteAmount: '2000000.000000000000000000000000000000',
            makerCommission: '0',
            takerCommission: '0.0005',
            quoteAmountPrecisionMarket: '1.000000000000000000000000000000',
            maxQuoteAmountMarket: '100000.000000000000000000000000000000',
            fullName: 'Bitcoin',
            tradeSideType: 1,
          },
        ],
      };
    }
    if (p === '/api/v1/contract/detail') return { success: true, code: 0, data: [] };
    if (p === '/api/v3/ticker/24hr' && url.searchParams.get('symbol') === 'BTCUSDT') {
      return {
        symbol: 'BTCUSDT',
        priceChange: '0',
        priceChangePercent: '0',
        prevClosePrice: q.price,
        lastPrice: q.price,
        bidPrice: q.price,
        bidQty: '0.5',
        askPrice: q.price,
        askQty: '0.5',
        openPrice: q.price,
        highPrice: q.price,
        lowPrice: q.price,
        volume: baseVolumeOf(q.volume24h),
        quoteVolume: q.volume24h,
        openTime: q.ts - 86_400_000,
        closeTime: q.ts,
        count: null,
      };
    }
    return undefined;
  },
  message(ws, text) {
    const msg = JSON.parse(text) as { method?: string; params?: string[] };
    // MEXC documents {"method":"PING"}; CCXT sends {"method":"ping"}
    if (msg.method?.toUpperCase() === 'PING') return send(ws, { id: 0, code: 0, msg: 'PONG' });
    if (msg.method !== 'SUBSCRIPTION') return;
    for (const channel of msg.params ?? []) {
      ws.topics?.add(channel);
      send(ws, { id: 0, code: 0, msg: channel });
    }
  },
  push(ws, q) {
    const channel = 'spot@public.aggre.bookTicker.v3.api.pb@100ms@BTCUSDT';
    if (!ws.topics?.has(channel)) return false;
    ws.send(mexcBookTickerFrame(channel, q));
    return true;
  },
  overrides: (httpUrl, wsUrl) => ({
    urls: {
      api: {
        spot: { public: httpUrl, private: httpUrl },
        spot2: { public: `${httpUrl}/open/api/v2`, private: `${httpUrl}/open/api/v2` },
        contract: { public: `${httpUrl}/api/v1/contract`, private: `${httpUrl}/api/v1/private` },
        ws: { spot: `${wsUrl}/ws`, swap: `${wsUrl}/edge` },
      },
    },
  }),
};

/** A protobuf varint. */
function varint(n: bigint): number[] {
  const out: number[] = [];
  let v = n;
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return out;
}

/** A protobuf field: a string or an embedded message (wire type 2) or an int64 (wire type 0). */
function field(id: number, value: string | Buffer | bigint): number[] {
  if (typeof value === 'bigint') return [...varint(BigInt(id * 8)), ...varint(value)];
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return [...varint(BigInt(id * 8 + 2)), ...varint(BigInt(bytes.length)), ...bytes];
}

/** MEXC's PushDataV3ApiWrapper (channel 1, symbol 3, sendTime 6) around a PublicAggreBookTickerV3Api (315: bid 1-2, ask 3-4). */
function mexcBookTickerFrame(channel: string, q: Quote): Buffer {
  const book = Buffer.from([...field(1, q.price), ...field(2, '0.5'), ...field(3, q.price), ...field(4, '0.5')]);
  return Buffer.from([...field(1, channel), ...field(3, 'BTCUSDT'), ...field(6, BigInt(q.ts)), ...field(315, book)]);
}

// HTX (huobiapi.github.io/docs/spot/v1/en: GET /v2/reference/currencies, /v1/common/symbols,
// /market/detail/merged; the socket's `market.<symbol>.detail` topic, every frame gzip-compressed, the server's
// {"ping": ts} answered by {"pong": ts}).
const htxSend = (ws: FakeSocket, body: unknown) => ws.send(gzipSync(JSON.stringify(body)));
const htx: Protocol = {
  rest(url, _m, q) {
    const p = url.pathname;
    if (p === '/v2/reference/currencies') {
      return {
        code: 200,
        data: ['btc', 'usdt'].map((currency) => ({
          currency,
          assetType: 1,
          chains: [
            {
              chain: currency === 'btc' ? 'btc' : 'usdterc20',
              displayName: currency === 'btc' ? 'BTC' : 'ERC20',
              baseChain: currency === 'btc' ? 'BTC' : 'ETH',
              baseChainProtocol: currency === 'btc' ? '' : 'ERC20',
              isDynamic: false,
              numOfConfirmations: 2,
              numOfFastConfirmations: 1,
              depositStatus: 'allowed',
              minDepositAmt: '0.0001',
              withdrawStatus: 'allowed',
              minWithdrawAmt: '0.001',
              withdrawPrecision: 8,
              maxWithdrawAmt: '100',
              withdrawQuotaPerDay: '100',
              withdrawQuotaPerYear: null,
              withdrawQuotaTotal: null,
              withdrawFeeType: 'fixed',
              transactFeeWithdraw: '0.0004',
            },
          ],
          instStatus: 'normal',
        })),
      };
    }
    if (p === '/v1/common/symbols') {
      return {
        status: 'ok',
        data: [
          {
            'base-currency': 'btc',
            'quote-currency': 'usdt',
            'price-precision': 2,
            'amount-precision': 6,
            'symbol-partition': 'main',
            symbol: 'btcusdt',
            state: 'online',
            'value-precision': 8,
            'min-order-amt': 0.0001,
            'max-order-amt': 1000,
            'min-order-value': 5,
            'limit-order-min-order-amt': 0.0001,
            'limit-order-max-order-amt': 1000,
            'sell-market-min-order-amt': 0.0001,
            'sell-market-max-order-amt': 100,
            'buy-market-max-order-value': 1_000_000,
            'leverage-ratio': 5,
            'super-margin-leverage-ratio': 3,
            'funding-leverage-ratio': 3,
            'api-trading': 'enabled',
            tags: '',
          },
        ],
      };
    }
    if (p === '/market/detail/merged' && url.searchParams.get('symbol') === 'btcusdt') {
      return { ch: 'market.btcusdt.detail.merged', status: 'ok', ts: q.ts, tick: { ...htxDetail(q), bid: [q.price, '0.5'], ask: [q.price, '0.5'] } };
    }
    return undefined;
  },
  message(ws, text, ts) {
    const msg = JSON.parse(text) as { sub?: string; id?: string; pong?: number };
    if (msg.pong !== undefined) return;
    if (msg.sub === undefined) return;
    ws.topics?.add(msg.sub);
    htxSend(ws, { id: msg.id, status: 'ok', subbed: msg.sub, ts });
  },
  push(ws, q) {
    if (!ws.topics?.has('market.btcusdt.detail')) return false;
    htxSend(ws, { ch: 'market.btcusdt.detail', ts: q.ts, tick: htxDetail(q) });
    return true;
  },
  serverPing: (ws, ts) => htxSend(ws, { ping: ts }),
  overrides: (httpUrl, wsUrl) => {
    const host = new URL(httpUrl).host;
    const hostUrl = `http://{hostname}`;
    return {
      hostname: host,
      urls: {
        hostnames: { spot: host, contract: host },
        api: {
          status: hostUrl,
          contract: hostUrl,
          spot: hostUrl,
          public: hostUrl,
          private: hostUrl,
          v2Public: hostUrl,
          v2Private: hostUrl,
          ws: { api: { spot: { public: `${wsUrl}/ws`, private: `${wsUrl}/ws/v2`, feed: `${wsUrl}/feed` } } },
        },
      },
    };
  },
};

function htxDetail(q: Quote) {
  return {
    id: 327_062_341_247 + q.seq,
    low: q.price,
    high: q.price,
    open: q.price,
    close: q.price,
    vol: q.volume24h,
    amount: baseVolumeOf(q.volume24h),
    version: 327_062_341_247 + q.seq,
    count: 1_234_567,
  };
}

/** The seven protocols added to Binance, OKX and Bybit. */
const PROTOCOLS: Record<Exclude<FakeExchangeId, 'binance' | 'okx' | 'bybit'>, Protocol> = { coinbase, kraken, kucoin, gate, bitget, mexc, htx };
