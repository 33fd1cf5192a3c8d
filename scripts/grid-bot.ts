/**
 * `npm run grid-bot [-- options]`: a grid bot written for Binance (CCXT's `binance` class, only its URLs changed)
 * against this exchange (the bot is apps/server/test/ccxt/grid-bot.ts, docs/binance-api.md "Using it with
 * CCXT"). It quotes limit orders around the mid price and re-quotes on fills for a few minutes, prints what it did,
 * and exits 1 on any error.
 *
 * The key: GRID_API_KEY and GRID_API_SECRET (an HMAC key with spot trading, made in the app's account centre:
 * Account centre > API management > Create), or --demo-key: on a demo server started with CAPTCHA_TEST_MODE=1 the
 * script logs in as the demo account (demo@exchange.local) and creates a key itself (puzzle, VERIFY code from the demo
 * outbox, POST member/apiKey/create), as a person would in the account centre.
 *
 *   --url URL          the exchange (default GRID_URL or http://127.0.0.1:8080)
 *   --minutes N        how long (default 5)
 *   --symbol A/B       spot market (default BTC/USDT)
 *   --levels N         orders a side (default 5)
 *   --step-bps N       distance between levels in basis points of the mid (default 10)
 *   --amount X         base amount of each order (default: twice the market's minimum notional)
 *   --demo-key         create a key for the demo account (demo server with CAPTCHA_TEST_MODE=1)
 */
import { API_KEY_PATHS, API_PATHS } from '@exchange/api';
import { runGridBot } from '../apps/server/test/ccxt/grid-bot';

interface Args {
  url: string;
  minutes: number;
  symbol: string;
  levels: number;
  stepBps: number;
  amount: string | undefined;
  demoKey: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    url: process.env.GRID_URL ?? 'http://127.0.0.1:8080',
    minutes: 5,
    symbol: 'BTC/USDT',
    levels: 5,
    stepBps: 10,
    amount: undefined,
    demoKey: false,
  };
  const num = (flag: string, v: string | undefined): number => {
    if (v === undefined || !/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new Error(`${flag} needs a number`);
    return Number(v);
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--demo-key') {
      a.demoKey = true;
      continue;
    }
    const v = argv[++i];
    if (flag === '--url') a.url = v ?? a.url;
    else if (flag === '--minutes') a.minutes = num(flag, v);
    else if (flag === '--symbol') a.symbol = v ?? a.symbol;
    else if (flag === '--levels') a.levels = num(flag, v);
    else if (flag === '--step-bps') a.stepBps = num(flag, v);
    else if (flag === '--amount') a.amount = v;
    else throw new Error(`unknown option ${flag}`);
  }
  return a;
}

/** One call of the app API (envelope); throws with its error code. */
async function call<T>(
  base: string,
  method: 'GET' | 'POST',
  p: string,
  body?: Record<string, string>,
  session?: { token: string; userId: string },
): Promise<T> {
  const headers: Record<string, string> = { lang: 'en', ...(session ?? {}) };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = new URLSearchParams(body).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const r = await fetch(`${base}/api/${p}`, init);
  const env = (await r.json()) as { status: string; errorCode: string; errorMessage: string; result: T };
  if (env.status !== 'SUCCEED') throw new Error(`${p}: HTTP ${r.status} ${env.errorCode} ${env.errorMessage}`);
  return env.result;
}

/** Logs in as the demo account and creates an HMAC key with spot trading (needs CAPTCHA_TEST_MODE=1 on the server). */
async function demoKey(base: string): Promise<{ apiKey: string; secret: string }> {
  const session = await call<{ token: string; userId: string }>(base, 'POST', API_PATHS.login, { account: 'demo@exchange.local', password: 'Demo12345' });
  const puzzle = await call<{ challenge: string }>(base, 'POST', `${API_PATHS.geetestCode}?randomCode=grid-bot`);
  const pass = await call<Record<string, string>>(base, 'POST', API_PATHS.geetestVerify, { challenge: puzzle.challenge, x: '0' });
  await call(base, 'POST', API_PATHS.sendCode, { type: 'VERIFY', channel: 'EMAIL', ...pass }, session);
  const outbox = await call<{ code: string; type: string }[]>(base, 'GET', `${API_PATHS.demoOutbox}?account=demo%40exchange.local`, undefined, session);
  const code = outbox.find((o) => o.type === 'VERIFY')?.code;
  if (code === undefined) throw new Error('no VERIFY code in the demo outbox');
  const created = await call<{ key: { apiKey: string }; secretKey: string }>(
    base,
    'POST',
    API_KEY_PATHS.create,
    { label: `grid-bot ${new Date().toISOString().slice(0, 16)}`, keyType: 'HMAC_SHA256', spotTrade: 'true', verifyCode: code },
    session,
  );
  return { apiKey: created.key.apiKey, secret: created.secretKey };
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  const base = a.url.replace(/\/+$/, '');
  let key: { apiKey: string; secret: string };
  if (a.demoKey) key = await demoKey(base);
  else {
    const apiKey = process.env.GRID_API_KEY;
    const secret = process.env.GRID_API_SECRET;
    if (!apiKey || !secret) throw new Error('set GRID_API_KEY and GRID_API_SECRET (a key with spot trading from the account centre), or pass --demo-key');
    key = { apiKey, secret };
  }
  const started = Date.now();
  const r = await runGridBot({ base, ...key, symbol: a.symbol, levels: a.levels, stepBps: a.stepBps, amount: a.amount, durationMs: a.minutes * 60_000 });
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `grid-bot: ${secs} s on ${base} ${a.symbol}: mid ${r.mid}, step ${r.step}; ${r.placed} orders placed, ${r.fills} fills, ${r.requotes} re-quotes, ` +
      `${r.skipped} re-quotes left out, ${r.inventoryBuys} inventory buys, ${r.cancelled} cancelled at the end, ${r.errors.length} errors`,
  );
  for (const e of r.errors) console.log(`  error: ${e}`);
  process.exit(r.errors.length === 0 ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
