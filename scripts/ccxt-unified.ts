/**
 * `npm run ccxt:unified [-- options]`: CCXT's own unified-method tests (github.com/ccxt/ccxt, ts/src/test/Exchange/
 * test.<method>.ts and base/test.<structure>.ts) run against this exchange's Binance API, with CCXT 4.5.84's
 * `binance` class from node_modules, only its URLs changed (docs/binance-api.md "Using it with CCXT").
 *
 * The test files are CCXT's, not ours, and are not in this repository: they are read from CCXT_TESTS_DIR (default
 * /work/ccxt-tests), laid out as ccxt's ts/src/test/ (Exchange/test.fetchTicker.ts, Exchange/base/test.ticker.ts, ...)
 * with their imports of CCXT's base modules pointed at node_modules/ccxt/js/src/base/. Without that directory the
 * script says how to get the files and exits 2.
 *
 * What it does, as CCXT's ts/src/test/tests.ts does it: starts the server (one node process on a fresh temporary
 * DATA_DIR and a free port, PGlite, the liquidity bots quoting: a live market), logs in as the demo account (funded
 * by DEMO_MODE) and creates an HMAC key with spot and futures trading through the account centre's API (second
 * factor from the demo outbox), then for spot (BTC/USDT) and swap (BTC/USDT:USDT) runs the public tests, places a few
 * orders, and runs the private tests. Each test is called as tests.ts calls it: `test(exchange, skippedProperties,
 * ...args)`, after `loadMarkets`, with `exchange.options.defaultType` set to the group's type; a method the class
 * does not have (`exchange.has`) is "unsupported"; a method Binance's entry of CCXT's skip-tests.json skips whole is
 * run anyway and shown as "skip(ccxt)" with its result; NotSupported counts as passed (tests.ts: "not supported");
 * OperationFailed is retried 3 times. Methods the brief of this script lists but tests.ts has no test file for are
 * called and their answer checked with CCXT's structure test where one applies (marked "call"). CCXT Pro's watch
 * tests (ts/src/pro/test/Exchange/test.watch*.ts, read from <CCXT_TESTS_DIR>/pro/Exchange/) run with
 * `ccxt.pro.binance` on the same URLs, the four public ones of a market together (15 s each), as tests.ts --ws does.
 *
 * Prints a table: method, market type, result, the first assertion message; then the counts per group.
 * Exits 1 when a test failed, 0 otherwise.
 *
 *   --keep        keep the data directory
 *   --verbose     print the whole assertion message (with CCXT's dump of the entry)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import ccxt from 'ccxt';
import { API_KEY_PATHS, API_PATHS } from '@exchange/api';
import { ApiClient, freePort, REPO_ROOT, ServerProcess, sleep } from '../apps/server/test/crash-harness';
import { binanceUrls } from '../apps/server/test/ccxt/ccxt-urls';

type Ex = InstanceType<typeof ccxt.binance>;
type TestFn = (exchange: Ex, skipped: Record<string, unknown>, ...args: unknown[]) => Promise<unknown> | unknown;

/** One row of the table. */
interface Row {
  method: string;
  market: 'spot' | 'swap';
  group: 'public' | 'private' | 'ws';
  result: 'pass' | 'FAIL' | 'unsupported' | 'not-supported' | 'no-test' | 'skipped';
  note: string;
}

const TESTS_DIR = process.env.CCXT_TESTS_DIR ?? '/work/ccxt-tests';
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const verbose = args.includes('--verbose');

/**
 * Binance's entry of CCXT's skip-tests.json (the stored version read for this script): whole methods skipped by a
 * string reason. No per-property skips are listed for binance in that version.
 */
const BINANCE_SKIPS: Record<string, string> = {
  loadMarkets: 'expiry not set for future markets',
  fetchTickers: 'some symbols i.e. BTC/USD4 might have bid-ask value 0',
  fetchTicker: 'same',
};

/** tests.ts getSkips: the object-specific skip groups, here only to map a method to its structure group. */
function skipsFor(method: string): Record<string, unknown> | string {
  const s = BINANCE_SKIPS[method];
  return s ?? {};
}

/**
 * Loads Exchange/test.<name>.ts (or base/test.<name>.ts; CCXT Pro's ts/src/pro/test/Exchange/ tests from
 * pro/Exchange/) from the tests directory; undefined when absent.
 */
async function load(name: string, base = false, pro = false): Promise<TestFn | undefined> {
  const file = pro ? path.join(TESTS_DIR, 'pro', 'Exchange', `test.${name}.ts`) : path.join(TESTS_DIR, 'Exchange', base ? 'base' : '', `test.${name}.ts`);
  if (!fs.existsSync(file)) return undefined;
  const mod = (await import(file)) as { default: TestFn };
  return mod.default;
}

/** The first line of an assertion or error message, without CCXT's "<<< ... >>>" dump of the entry. */
function firstMessage(err: unknown): string {
  const e = err as { constructor?: { name?: string }; message?: string };
  const msg = `${e.constructor?.name ?? 'Error'}: ${e.message ?? String(err)}`;
  if (verbose) return msg;
  const cut = msg.split(' <<< ')[0]!.split('\n')[0]!;
  return cut.length > 220 ? `${cut.slice(0, 217)}...` : cut;
}

const rows: Row[] = [];

/**
 * tests.ts testSafe + testMethod: skips unsupported methods, retries OperationFailed (3 tries), counts NotSupported
 * (and an AuthenticationError on a public test) as passed, records everything else as a failure.
 */
async function run(
  ex: Ex | InstanceType<typeof ccxt.pro.binance>,
  market: Row['market'],
  group: Row['group'],
  method: string,
  fn: (() => Promise<unknown>) | undefined,
  hasName = method.replace(' (call)', ''),
): Promise<void> {
  const skip = skipsFor(method);
  const skipNote = typeof skip === 'string' ? `skip(ccxt: ${skip}) ` : '';
  if (!ex.has[hasName as keyof typeof ex.has]) {
    rows.push({ method, market, group, result: 'unsupported', note: `exchange.has.${hasName} is false` });
    return;
  }
  if (fn === undefined) {
    rows.push({ method, market, group, result: 'no-test', note: `${skipNote}no CCXT test file in ${TESTS_DIR}` });
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await fn();
      rows.push({ method, market, group, result: 'pass', note: skipNote.trim() });
      return;
    } catch (err) {
      if (err instanceof ccxt.OperationFailed && attempt < 3) {
        await sleep(attempt * 1000);
        continue;
      }
      if (err instanceof ccxt.NotSupported) {
        rows.push({ method, market, group, result: 'not-supported', note: `${skipNote}${firstMessage(err)}` });
        return;
      }
      if (group === 'public' && err instanceof ccxt.AuthenticationError) {
        rows.push({ method, market, group, result: 'pass', note: `${skipNote}auth error on a public test: ${firstMessage(err)}` });
        return;
      }
      // A method Binance's skip list skips whole is not run by tests.ts: its failure is shown, not counted.
      rows.push({ method, market, group, result: skipNote ? 'skipped' : 'FAIL', note: `${skipNote}${firstMessage(err)}` });
      return;
    }
  }
}

/** Creates an HMAC key with spot and futures trading for the session's user (second factor from the demo outbox). */
async function createKey(c: ApiClient, mail: string, s: { token: string; userId: string }): Promise<{ apiKey: string; secret: string }> {
  const puzzle = await c.write<{ challenge: string }>(`${API_PATHS.geetestCode}?randomCode=ccxt-unified&clientType=h5`, {});
  const pass = await c.write<Record<string, string>>(API_PATHS.geetestVerify, { challenge: puzzle.challenge, x: 0 });
  await c.write(API_PATHS.sendCode, { type: 'VERIFY', channel: 'EMAIL', ...pass }, s);
  const box = await c.read<Array<{ code: string; type: string }>>(API_PATHS.demoOutbox, { account: mail }, s);
  const code = box.filter((b) => b.type === 'VERIFY').at(-1)?.code;
  if (code === undefined) throw new Error('no VERIFY code in the demo outbox');
  const created = await c.write<{ key: { apiKey: string }; secretKey: string }>(
    API_KEY_PATHS.create,
    { label: 'ccxt-unified', keyType: 'HMAC_SHA256', spotTrade: 'true', futuresTrade: 'true', verifyCode: code },
    s,
  );
  return { apiKey: created.key.apiKey, secret: created.secretKey };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(TESTS_DIR, 'Exchange', 'base', 'test.sharedMethods.ts'))) {
    console.error(
      `CCXT's tests are not in ${TESTS_DIR} (set CCXT_TESTS_DIR). They are not part of this repository (CCXT's code, MIT):\n` +
        `  git clone --depth 1 --filter=blob:none --sparse https://github.com/ccxt/ccxt && cd ccxt && git sparse-checkout set ts/src/test\n` +
        `  then copy ts/src/test/ to ${TESTS_DIR}, ln -s ${path.join(REPO_ROOT, 'node_modules')} ${TESTS_DIR}/node_modules, and point the\n` +
        `  imports of '../../../base/X.js' (and '../../base/X.js') at '<...>/node_modules/ccxt/js/src/base/X.js'.`,
    );
    process.exit(2);
  }
  const t = Object.fromEntries(
    await Promise.all(
      [
        'fetchMarkets',
        'fetchCurrencies',
        'fetchTicker',
        'fetchTickers',
        'fetchOrderBook',
        'fetchTrades',
        'fetchOHLCV',
        'fetchStatus',
        'fetchTime',
        'fetchFundingRate',
        'fetchFundingRates',
        'fetchFundingRateHistory',
        'fetchLeverageTiers',
        'fetchBalance',
        'fetchTradingFees',
        'fetchOrders',
        'fetchOpenOrders',
        'fetchClosedOrders',
        'fetchMyTrades',
        'fetchLedger',
        'fetchDeposits',
        'fetchWithdrawals',
        'fetchPositions',
        'fetchTransfers',
      ].map(async (n) => [n, await load(n)] as const),
    ),
  ) as Record<string, TestFn | undefined>;
  const testOrder = await load('order', true);
  const testPosition = await load('position', true);
  const testTicker = await load('ticker', true);
  const watch = Object.fromEntries(
    await Promise.all(['watchTicker', 'watchOrderBook', 'watchTrades', 'watchOHLCV'].map(async (n) => [n, await load(n, false, true)] as const)),
  ) as Record<string, TestFn | undefined>;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccxt-unified-'));
  const port = await freePort();
  console.log(`starting the server on port ${port}, DATA_DIR ${dataDir} ...`);
  const server = await ServerProcess.start({ root: REPO_ROOT, dataDir, port, marketMakers: true, orderRatePer10s: 0, startTimeoutMs: 180_000, devChain: true });
  const c = new ApiClient(port);
  let exitCode = 0;
  try {
    // The demo account (DEMO_MODE seeds it with funds), as the grid bot's --demo-key does.
    const mail = 'demo@exchange.local';
    // It is created just after the server starts listening: retried for up to 30 s.
    let session: { token: string; userId: string } | undefined;
    for (let i = 0; session === undefined; i++) {
      try {
        session = await c.write<{ token: string; userId: string }>(API_PATHS.login, { account: mail, password: 'Demo12345' });
      } catch (err) {
        if (i >= 30) throw err;
        await sleep(1000);
      }
    }
    const key = await createKey(c, mail, session);
    const base = `http://127.0.0.1:${port}`;
    const ex = new ccxt.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(base), enableRateLimit: true, timeout: 30_000 });
    await ex.loadMarkets(true);
    // Let the bots quote and trade for a moment, so there are trades and candles.
    await sleep(5000);
    const sk = (m: string): Record<string, unknown> => {
      const s = skipsFor(m);
      return typeof s === 'string' ? {} : s;
    };
    const call = (m: string, ...a: unknown[]): (() => Promise<unknown>) | undefined => {
      const fn = t[m];
      return fn ? async () => fn(ex, sk(m), ...a) : undefined;
    };
    const code = 'USDT';
    const groups: Array<{ type: 'spot' | 'swap'; symbol: string }> = [
      { type: 'spot', symbol: 'BTC/USDT' },
      { type: 'swap', symbol: 'BTC/USDT:USDT' },
    ];
    // ---- public (tests.ts runPublicTests; loadMarkets first with its own test: fetchMarkets)
    for (const g of groups) {
      ex.options.defaultType = g.type;
      const s = g.symbol;
      if (!(s in (ex.markets ?? {}))) {
        rows.push({ method: 'loadMarkets', market: g.type, group: 'public', result: 'FAIL', note: `${s} is not in the markets` });
        continue;
      }
      await run(ex, g.type, 'public', 'fetchMarkets', call('fetchMarkets'));
      await run(ex, g.type, 'public', 'fetchCurrencies', call('fetchCurrencies'));
      await run(ex, g.type, 'public', 'fetchTicker', call('fetchTicker', s));
      await run(ex, g.type, 'public', 'fetchTickers', call('fetchTickers', s));
      await run(ex, g.type, 'public', 'fetchOHLCV', call('fetchOHLCV', s));
      await run(ex, g.type, 'public', 'fetchTrades', call('fetchTrades', s));
      await run(ex, g.type, 'public', 'fetchOrderBook', call('fetchOrderBook', s));
      await run(ex, g.type, 'public', 'fetchStatus', call('fetchStatus'));
      await run(ex, g.type, 'public', 'fetchTime', async () => {
        const v = await ex.fetchTime();
        if (typeof v !== 'number' || Math.abs(v - Date.now()) > 60_000) throw new Error(`fetchTime answered ${v}`);
      });
      if (g.type === 'swap') {
        await run(ex, g.type, 'public', 'fetchFundingRate', call('fetchFundingRate', s));
        await run(ex, g.type, 'public', 'fetchFundingRates', call('fetchFundingRates', s));
        await run(ex, g.type, 'public', 'fetchFundingRateHistory', call('fetchFundingRateHistory', s));
        await run(
          ex,
          g.type,
          'public',
          'fetchMarkPrice (call)',
          async () => {
            const tk = await ex.fetchMarkPrice(s);
            if (testTicker) await testTicker(ex, {}, 'fetchMarkPrice', tk, s);
          },
          'fetchMarkPrice',
        );
        await run(
          ex,
          g.type,
          'public',
          'fetchOpenInterest (call)',
          async () => {
            const oi = await ex.fetchOpenInterest(s);
            if (oi.symbol !== s) throw new Error(`symbol ${oi.symbol}`);
          },
          'fetchOpenInterest',
        );
      }
    }
    // ---- CCXT Pro (tests.ts --ws: the watch tests of a group run together, 15 s each)
    const pro = new ccxt.pro.binance({ apiKey: key.apiKey, secret: key.secret, urls: binanceUrls(base), enableRateLimit: true, timeout: 30_000 });
    // A CCXT property, not an option: CCXT Pro refuses a plain ws:// URL without an http agent (docs/binance-api.md).
    (pro as unknown as { httpAgent: http.Agent }).httpAgent = new http.Agent();
    try {
      await pro.loadMarkets();
      for (const g of groups) {
        pro.options.defaultType = g.type;
        await Promise.all(
          Object.entries(watch).map(([name, fn]) => run(pro, g.type, 'ws', name, fn ? async () => fn(pro as unknown as Ex, sk(name), g.symbol) : undefined)),
        );
      }
    } finally {
      await pro.close();
    }
    // ---- private: fund the futures wallet, make some orders, then tests.ts runPrivateTests (+ createOrder & co)
    await run(
      ex,
      'swap',
      'private',
      'transfer (call)',
      async () => {
        const tr = await ex.transfer(code, 2000, 'spot', 'future');
        // Binance answers { tranId } only: CCXT's transfer structure has the id (amount and accounts stay undefined).
        if (!tr.id) throw new Error(`transfer answered ${JSON.stringify(tr.info)}`);
      },
      'transfer',
    );
    for (const g of groups) {
      ex.options.defaultType = g.type;
      const s = g.symbol;
      if (!(s in (ex.markets ?? {}))) continue;
      const m = ex.market(s);
      const book = await ex.fetchOrderBook(s, 5);
      const bid = book.bids[0]?.[0];
      const ask = book.asks[0]?.[0];
      const minAmount = Math.max(m.limits.amount?.min ?? 0.001, 0.001);
      await run(ex, g.type, 'private', 'createOrder (call)', async () => {
        if (bid === undefined || ask === undefined) throw new Error('no bid or ask to price the orders');
        // A resting limit buy 5% under the bid, a market buy, a market sell back (closes the swap position later).
        const low = ex.priceToPrecision(s, bid * 0.95);
        const resting = await ex.createOrder(s, 'limit', 'buy', minAmount, Number(low));
        (globalThis as { restingId?: string }).restingId = resting.id;
        if (testOrder) testOrder(ex, {}, 'createOrder', resting, s, ex.milliseconds());
        const mk = await ex.createOrder(s, 'market', 'buy', minAmount);
        if (testOrder) testOrder(ex, {}, 'createOrder', mk, s, ex.milliseconds());
        const fetched = await ex.fetchOrder(resting.id ?? '', s);
        if (testOrder) testOrder(ex, {}, 'fetchOrder', fetched, s, ex.milliseconds());
      });
      const tests: Array<[string, (() => Promise<unknown>) | undefined]> = [
        ['fetchBalance', call('fetchBalance')],
        ['fetchTradingFees', call('fetchTradingFees')],
        ['fetchStatus', call('fetchStatus')],
        ['fetchOrders', call('fetchOrders', s)],
        ['fetchOpenOrders', call('fetchOpenOrders', s)],
        ['fetchClosedOrders', call('fetchClosedOrders', s)],
        ['fetchMyTrades', call('fetchMyTrades', s)],
        ['fetchLeverageTiers', call('fetchLeverageTiers', [s])],
        ['fetchLedger', call('fetchLedger', code)],
        ['fetchDeposits', call('fetchDeposits', code)],
        ['fetchWithdrawals', call('fetchWithdrawals', code)],
      ];
      if (g.type === 'spot') tests.push(['fetchCurrencies', call('fetchCurrencies')]);
      else {
        tests.push(['fetchPositions', call('fetchPositions', s)]);
        tests.push(['fetchFundingRateHistory', call('fetchFundingRateHistory', s)]);
      }
      for (const [name, fn] of tests) await run(ex, g.type, 'private', name, fn);
      await run(ex, g.type, 'private', 'fetchTransfers', call('fetchTransfers', code));
      await run(
        ex,
        g.type,
        'private',
        'fetchDepositAddress (call)',
        async () => {
          const a = await ex.fetchDepositAddress(code);
          if (a.currency !== code || !a.address) throw new Error(`answered ${JSON.stringify({ currency: a.currency, address: a.address })}`);
        },
        'fetchDepositAddress',
      );
      await run(ex, g.type, 'private', 'cancelOrder (call)', async () => {
        const id = (globalThis as { restingId?: string }).restingId;
        if (id === undefined) throw new Error('no resting order (createOrder failed)');
        const o = await ex.cancelOrder(id, s);
        if (testOrder) testOrder(ex, {}, 'cancelOrder', o, s, ex.milliseconds());
        if (o.status !== 'canceled') throw new Error(`status ${o.status}`);
        delete (globalThis as { restingId?: string }).restingId;
      });
      if (g.type === 'swap') {
        await run(
          ex,
          g.type,
          'private',
          'fetchLeverage (call)',
          async () => {
            const l = await ex.fetchLeverage(s);
            if (!(Number(l.longLeverage) > 0)) throw new Error(`longLeverage ${l.longLeverage}`);
          },
          'fetchLeverage',
        );
        await run(
          ex,
          g.type,
          'private',
          'setLeverage (call)',
          async () => {
            await ex.setLeverage(5, s);
            const l = await ex.fetchLeverage(s);
            if (l.longLeverage !== 5) throw new Error(`after setLeverage(5): ${l.longLeverage}`);
          },
          'setLeverage',
        );
        await run(
          ex,
          g.type,
          'private',
          'fetchPosition (call)',
          async () => {
            const p = await ex.fetchPosition(s);
            if (testPosition) testPosition(ex, {}, 'fetchPosition', p, s, ex.milliseconds());
          },
          'fetchPosition',
        );
      }
    }
  } catch (err) {
    console.error(err instanceof Error ? err.stack : err);
    console.error(server.tail(20));
    exitCode = 1;
  } finally {
    c.close();
    await server.stop('SIGTERM');
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const w = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
  console.log(`\n${w('method', 30)} ${w('market', 6)} ${w('group', 8)} ${w('result', 13)} first message`);
  for (const r of rows) console.log(`${w(r.method, 30)} ${w(r.market, 6)} ${w(r.group, 8)} ${w(r.result, 13)} ${r.note}`);
  console.log('');
  for (const group of ['public', 'private', 'ws'] as const)
    for (const market of ['spot', 'swap'] as const) {
      const mine = rows.filter((r) => r.group === group && r.market === market);
      const count = (k: Row['result']) => mine.filter((r) => r.result === k).length;
      const tested = mine.filter((r) => r.result !== 'unsupported' && r.result !== 'no-test' && r.result !== 'skipped').length;
      console.log(
        `${group} ${market}: ${count('pass') + count('not-supported')} of ${tested} passed (${count('not-supported')} NotSupported), ` +
          `${count('FAIL')} failed, ${count('skipped')} failing but skipped by CCXT's list, ${count('unsupported')} unsupported by the class, ` +
          `${count('no-test')} without a test file`,
      );
    }
  if (rows.some((r) => r.result === 'FAIL')) exitCode = exitCode || 1;
  process.exit(exitCode);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
