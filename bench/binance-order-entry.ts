/**
 * Benchmark 6: order entry through the Binance-compatible API, `POST /api/v3/order` signed with
 * HMAC-SHA256, next to the app API's `POST entrust/entrust/setEntrust`, on the same server in the same run with the
 * same order. Starts the built server as benchmark 2 does (temporary DATA_DIR, no liquidity bots, no per-IP and no
 * Binance order/weight limits, captcha test mode for the sign-ups), registers 16 users through the API, and creates
 * an HMAC key for each exactly as a person does in the account centre (VERIFY code from the demo outbox, then
 * POST member/apiKey/create). autocannon (128 connections, one user and key per connection, 2 s warm-up each, then
 * 10 s measured each, Binance first, then the app API, then Binance again and the app API again; the two runs of
 * each are averaged) sends a limit IOC BUY of 0.00500 BTC at 1,000.00 USDT on BTC/USDT (far below any price: it is
 * journaled, held, matched against nothing and expired). Every Binance request carries its own timestamp and
 * signature (computed in the bench process by setupRequest). Prints req/s, p50/p99 and the ratio Binance / app API.
 *
 * `BENCH_ONLY=binance npm run bench`, or alone: `npx tsx bench/binance-order-entry.ts`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { API_KEY_PATHS, API_PATHS } from '@exchange/api';
import { measure, registerUser, startBenchServer, stop, waitFor, type HttpMeasure } from './src/http-order-entry';
import { freePort } from './src/ports';
import { fmtInt, fmtRatio, heading, table } from './src/report';

const CONNECTIONS = Number.parseInt(process.env.BENCH_CONNECTIONS ?? '128', 10);
const DURATION_S = Number.parseInt(process.env.BENCH_BINANCE_SECONDS ?? '10', 10);
const WARMUP_S = 2;
const USERS = 16;
/** The order of both APIs: a limit IOC BUY of 0.005 BTC at 1,000 USDT (5 USDT, the minimum notional). */
const APP_BODY = 'pairsName=BTC%2FUSDT&side=BUY&orderType=LIMIT&timeInForce=IOC&price=1000.00&amount=0.00500';
const BINANCE_PARAMS = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&price=1000.00&quantity=0.00500&newOrderRespType=RESULT';

/** A user's app session and API key. */
export interface Session {
  token: string;
  userId: string;
  apiKey: string;
  secret: string;
}

/** An app API call with a session; the envelope's result, or throws. */
async function sessionCall<T>(
  base: string,
  method: 'GET' | 'POST',
  p: string,
  session: { token: string; userId: string },
  body?: Record<string, string>,
): Promise<T> {
  const headers: Record<string, string> = { lang: 'en', token: session.token, userId: session.userId };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    init.body = new URLSearchParams(body).toString();
  }
  const r = await fetch(`${base}/api/${p}`, init);
  const env = (await r.json()) as { status: string; errorCode: string; errorMessage: string; result: T };
  if (env.status !== 'SUCCEED') throw new Error(`${p}: HTTP ${r.status} ${env.errorCode} ${env.errorMessage}`);
  return env.result;
}

/** Creates an HMAC key with spot trading for the logged-in e-mail user `mail` (second factor: a VERIFY code). */
async function createKey(base: string, mail: string, s: { token: string; userId: string }): Promise<{ apiKey: string; secret: string }> {
  const post = async <T>(p: string, body: Record<string, string>) => {
    const r = await fetch(`${base}/api/${p}`, {
      method: 'POST',
      headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    return ((await r.json()) as { result: T }).result;
  };
  const puzzle = await post<{ challenge: string }>(`${API_PATHS.geetestCode}?randomCode=${encodeURIComponent(mail)}`, {});
  const pass = await post<Record<string, string>>(API_PATHS.geetestVerify, { challenge: puzzle.challenge, x: '0' });
  await sessionCall(base, 'POST', API_PATHS.sendCode, s, { type: 'VERIFY', channel: 'EMAIL', ...pass });
  const outbox = await sessionCall<{ code: string; type: string }[]>(base, 'GET', `${API_PATHS.demoOutbox}?account=${encodeURIComponent(mail)}`, s);
  const code = outbox.find((o) => o.type === 'VERIFY')?.code;
  if (code === undefined) throw new Error(`no VERIFY code for ${mail}`);
  const created = await sessionCall<{ key: { apiKey: string }; secretKey: string }>(base, 'POST', API_KEY_PATHS.create, s, {
    label: 'bench',
    keyType: 'HMAC_SHA256',
    spotTrade: 'true',
    verifyCode: code,
  });
  return { apiKey: created.key.apiKey, secret: created.secretKey };
}

/**
 * The measured part: warm-ups, then two alternating runs of each API against the server at `base` with the users'
 * sessions and keys; answers the runs and what one more order of each answered.
 */
export async function measureBoth(base: string, sessions: Session[]): Promise<{ binance: HttpMeasure[]; app: HttpMeasure[]; check: string }> {
  const runs: { binance: HttpMeasure[]; app: HttpMeasure[] } = { binance: [], app: [] };
  let n = 0;
  const binanceOpts = (duration: number): autocannon.Options => ({
    url: base,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/api/v3/order',
        // One key per connection (its context), a fresh timestamp and signature per request.
        setupRequest: (req, context) => {
          const ctx = context as { session?: Session };
          const s = (ctx.session ??= sessions[n++ % sessions.length]!);
          const payload = `${BINANCE_PARAMS}&timestamp=${Date.now()}`;
          const signature = crypto.createHmac('sha256', s.secret).update(payload).digest('hex');
          return {
            ...req,
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-mbx-apikey': s.apiKey },
            body: `${payload}&signature=${signature}`,
          };
        },
      },
    ],
  });
  const appOpts = (duration: number): autocannon.Options => ({
    url: `${base}/api/${API_PATHS.setEntrust}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    setupClient: (client) => {
      const s = sessions[n++ % sessions.length]!;
      client.setHeaders({ 'content-type': 'application/x-www-form-urlencoded', lang: 'en', token: s.token, userId: s.userId });
    },
    body: APP_BODY,
  });
  await measure(binanceOpts(WARMUP_S));
  await measure(appOpts(WARMUP_S));
  for (let pass = 0; pass < 2; pass++) {
    runs.binance.push(await measure(binanceOpts(DURATION_S)));
    runs.app.push(await measure(appOpts(DURATION_S)));
  }
  // What one more order of each answers (both must be accepted and expired, not rejected).
  const s = sessions[0]!;
  const payload = `${BINANCE_PARAMS}&timestamp=${Date.now()}`;
  const b = await fetch(`${base}/api/v3/order`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-mbx-apikey': s.apiKey },
    body: `${payload}&signature=${crypto.createHmac('sha256', s.secret).update(payload).digest('hex')}`,
  });
  const bj = (await b.json()) as { status?: string; code?: number; msg?: string };
  const a = await sessionCall<{ status: string }>(base, 'POST', API_PATHS.setEntrust, s, Object.fromEntries(new URLSearchParams(APP_BODY)));
  const check = `a last order answers: /api/v3/order HTTP ${b.status} ${bj.status ?? `${bj.code} ${bj.msg}`}, setEntrust ${a.status}`;
  return { ...runs, check };
}

/** Runs the benchmark; undefined when the server could not be benchmarked (printed). */
export async function runBinanceOrderEntry(): Promise<{ binance: HttpMeasure; app: HttpMeasure } | undefined> {
  heading('6. Order entry: Binance POST /api/v3/order (HMAC signed) vs the app API setEntrust (same server, same run)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-binance-'));
  const port = await freePort();
  // The Binance API's own limits (weight per IP and key, orders per key) off, as the app API's are; two codes per
  // user from one IP (sign-up and the key's second factor) are more than the default 20 an hour, one a minute each.
  const { server, log } = startBenchServer(port, dataDir, {
    BINANCE_WEIGHT_PER_MIN: '0',
    BINANCE_ORDERS_PER_10S: '0',
    BINANCE_ORDERS_PER_DAY: '0',
    CODE_RESEND_MS: '1000',
    CODE_IP_PER_HOUR: '1000',
  });
  const base = `http://127.0.0.1:${port}`;
  const runs: { binance: HttpMeasure[]; app: HttpMeasure[] } = { binance: [], app: [] };
  let check = '';
  try {
    await waitFor(`${base}/healthz`, server, 120_000, log);
    const registered: { mail: string; token: string; userId: string }[] = [];
    for (let u = 0; u < USERS; u++) {
      const mail = `binance${u}@example.com`;
      registered.push({ mail, ...(await registerUser(base, mail)) });
    }
    // Each user asks for a second code (the key's second factor) after the sign-up's: the server lets one account
    // have a code each CODE_RESEND_MS (1 s here), so the keys are made once that has passed for every user.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const sessions: Session[] = [];
    for (const { mail, ...s } of registered) sessions.push({ ...s, ...(await createKey(base, mail, s)) });
    console.log(`  server up on :${port} (DATA_DIR ${dataDir}); ${USERS} users registered and ${USERS} HMAC keys created through the API`);

    const r = await measureBoth(base, sessions);
    runs.binance.push(...r.binance);
    runs.app.push(...r.app);
    check = r.check;
  } catch (err) {
    console.log(`  skipped: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  } finally {
    await stop(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const avg = (ms: HttpMeasure[]): HttpMeasure => ({
    rps: ms.reduce((x, m) => x + m.rps, 0) / ms.length,
    p50: ms.reduce((x, m) => x + m.p50, 0) / ms.length,
    p99: ms.reduce((x, m) => x + m.p99, 0) / ms.length,
    total: ms.reduce((x, m) => x + m.total, 0),
    non2xx: ms.reduce((x, m) => x + m.non2xx, 0),
    errors: ms.reduce((x, m) => x + m.errors, 0),
  });
  const binance = avg(runs.binance);
  const app = avg(runs.app);
  console.log(`  ${CONNECTIONS} connections, ${DURATION_S} s x 2 each (alternating) after a ${WARMUP_S} s warm-up each; ${check}`);
  table([
    ['endpoint', 'orders/s', 'p50 ms', 'p99 ms', 'orders', 'non-2xx', 'ratio orders/s'],
    [
      'POST /api/v3/order (HMAC)',
      fmtInt(binance.rps),
      binance.p50.toFixed(1),
      binance.p99.toFixed(1),
      fmtInt(binance.total),
      String(binance.non2xx),
      `${fmtRatio(binance.rps / app.rps)} of setEntrust`,
    ],
    ['POST setEntrust (app API)', fmtInt(app.rps), app.p50.toFixed(1), app.p99.toFixed(1), fmtInt(app.total), String(app.non2xx), '1.00x'],
  ]);
  return { binance, app };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runBinanceOrderEntry().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
