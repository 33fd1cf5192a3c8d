/**
 * Bad input on every Binance-compatible REST route: every route under /api/v3, /fapi, /dapi and /sapi in
 * the app's route tree (listRoutes of test/bad-input.matrix.ts), every parameter its TypeBox schema declares (the
 * OpenAPI document the validating schemas generate, fieldsOf), the matrix's table of malformed values (missing when
 * required, a repeated key, NaN, Infinity, -1, 0, 1e308, too many decimals, injection strings, hostile text, unknown
 * enum values, a 1 MB string) plus a malformed percent-encoding. Requests are signed with a real key of a user with
 * no funds (so the handler is reached and every order is refused: nothing can be bought), GET/DELETE parameters in
 * the query string, POST/PUT in a form body, as CCXT sends them. Each answer must be HTTP 4xx with Binance's body
 * `{ code: negative integer, msg: text }`, never 5xx, never a success, unless the route's parameter legitimately
 * accepts the value (ACCEPTS, with the reason; then still never a 5xx). Afterwards nothing has changed: the engine's
 * state hash, the user's balances, every database table (count and checksum). The parameters come from the route
 * schemas, so a new route or parameter is covered without an edit; a route answering 5xx fails the table (proved
 * below on a test route).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ACCOUNT_KINDS } from '@exchange/core';
import { makeTestApp, NO_RATE_LIMITS, type TestApp } from '../../../test/helpers';
import { casesFor, fieldsOf, inBatches, listRoutes, type Case, type Field, type RouteKey } from '../../../test/bad-input.matrix';
import { hmacHex, keyServiceWithoutSecondFactor, makeTestScope, registerEngineUser } from './binance.test-scope';

/** Path prefixes of the Binance-compatible REST routes. */
const PREFIXES = ['/api/v3/', '/fapi/', '/dapi/', '/sapi/'];

/**
 * A well-formed value per parameter name, put in every request of a route that declares it (the case replaces one).
 * Chosen so that no request of the table can change anything: the user has no funds (orders are refused), the
 * leverage and margin type are invalid, ids name nothing.
 */
const BASE: Readonly<Record<string, string>> = {
  symbol: 'BTCUSDT',
  symbols: '["BTCUSDT"]',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '0.01',
  price: '1000',
  orderId: '999999',
  limit: '5',
  interval: '1m',
  leverage: '126',
  marginType: 'BOGUS',
  dualSidePosition: 'true',
  listenKey: 'nope',
};

/** Values a parameter legitimately accepts (the answer may be a success; never a 5xx), by parameter name on every route. */
const ACCEPTS: Readonly<Record<string, { values: readonly string[]; why: string }>> = {
  recvWindow: { values: ['0'], why: 'a window of 0 ms is legal (Binance: at most 60000); the request passes within the same millisecond only' },
  startTime: { values: ['0'], why: 'time 0 is a valid start of a read (everything after it)' },
  endTime: { values: ['0'], why: 'time 0 is a valid end of a read (no rows before it)' },
  fromId: { values: ['0'], why: 'id 0: read from the first row' },
  orderId: { values: ['0'], why: 'order id 0: allOrders reads from the first order (Binance: orderId >= that id)' },
  algoId: {
    values: ['0'],
    why: 'algo id 0: allAlgoOrders reads from the first (Binance: algoId >= that id); openAlgoOrders filtered by an id no order has lists none',
  },
  timeZone: { values: ['0', '-1'], why: "Binance's timeZone is an hour offset from -12 to +14: 0 and -1 are legal" },
};

/** Well-formed client order ids among the table's values (Binance's legal range ^[.A-Z:/a-z0-9_-]{1,36}$). */
const CLIENT_IDS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e308',
  '0.123456789012345678901',
  '../../etc/passwd',
  '9223372036854775808',
  '99999999999999999999',
];

/** Values one route accepts beyond ACCEPTS, by "METHOD url" and parameter, with the reason. */
const ROUTE_ACCEPTS: Readonly<Record<string, Record<string, { values: readonly string[]; why: string }>>> = {
  'POST /api/v3/order/test': {
    newClientOrderId: { values: CLIENT_IDS, why: 'order/test only validates: a well-formed client order id is accepted and nothing is placed' },
    strategyId: { values: ['0'], why: 'order/test only validates: strategyId 0 is a legal LONG; nothing is placed' },
    strategyType: { values: ['0'], why: 'order/test only validates: strategyType is not interpreted here; nothing is placed' },
  },
  'GET /sapi/v1/capital/deposit/hisrec': {
    status: { values: ['0'], why: 'deposit status 0 is Binance\'s "pending": a filter that lists the pending deposits (none)' },
    offset: { values: ['0'], why: 'offset 0 is the first row of the history (none)' },
  },
  'GET /sapi/v1/capital/withdraw/history': {
    status: { values: ['0'], why: 'withdrawal status 0 is Binance\'s "email sent": a filter (none here)' },
    offset: { values: ['0'], why: 'offset 0 is the first row of the history (none)' },
    withdrawOrderId: {
      values: CLIENT_IDS.filter((v) => /^[A-Za-z0-9_-]{1,64}$/.test(v)),
      why: 'a well-formed client withdrawal id filters the history (none)',
    },
  },
  'GET /sapi/v1/margin/allPairs': {
    symbol: { values: ['-1', '0', '9223372036854775808', '99999999999999999999'], why: 'no margin here: any well-formed symbol lists no pair ([])' },
  },
  'GET /sapi/v1/margin/isolated/allPairs': {
    symbol: { values: ['-1', '0', '9223372036854775808', '99999999999999999999'], why: 'no margin here: any well-formed symbol lists no pair ([])' },
  },
};

/** One request of the table: a route, the values of its parameters, the case (or null for the base). */
interface Shot {
  route: RouteKey;
  fields: Field[];
  kase: Case | null;
  rawUrl?: string;
}

let t: TestApp;
let key = { apiKey: '', secret: '' };
let userId = '';

/** The body (or query) string of `values`, repeated keys for arrays. */
function form(values: Record<string, string | string[]>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const item of Array.isArray(v) ? v : [v]) sp.append(k, item);
  return sp.toString();
}

/** Sends a shot to `app`, signed with `key` as a Binance client does (query string followed by the body). */
function send(app: FastifyInstance, shot: Shot): Promise<LightMyRequestResponse> {
  const values: Record<string, string | string[]> = {};
  for (const f of shot.fields) if (BASE[f.name] !== undefined) values[f.name] = BASE[f.name]!;
  const k = shot.kase;
  if (k === null || k.field !== 'timestamp') values.timestamp = String(t.ctx.clock.now());
  if (k !== null) {
    const v = k.value;
    if (v.kind === 'missing') delete values[k.field];
    else if (v.kind === 'string') values[k.field] = v.value;
    else if (v.kind === 'repeat') values[k.field] = v.values;
    else values[k.field] = JSON.stringify(v.value);
  }
  delete values.signature;
  const inBody = shot.route.method === 'POST' || shot.route.method === 'PUT';
  const payload = form(values);
  const signature =
    k?.field === 'signature' && k.value.kind !== 'missing'
      ? form({ signature: k.value.kind === 'string' ? k.value.value : '1' })
      : k?.field === 'signature'
        ? ''
        : `signature=${hmacHex(key.secret, payload)}`;
  const signed = [payload, signature].filter((s) => s !== '').join('&');
  const headers = { 'x-mbx-apikey': key.apiKey };
  const method = shot.route.method as 'GET' | 'POST' | 'PUT' | 'DELETE';
  if (shot.rawUrl !== undefined) return app.inject({ method, url: shot.rawUrl, headers });
  if (inBody) return app.inject({ method, url: shot.route.url, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: signed });
  return app.inject({ method, url: `${shot.route.url}?${signed}`, headers });
}

/** What is wrong with an answer that must be a Binance rejection (or, when `accepted`, may be a success). */
function problemsOf(res: LightMyRequestResponse, accepted: boolean): string[] {
  if (res.statusCode >= 500) return [`HTTP ${res.statusCode}: ${res.body.slice(0, 160)}`];
  if (accepted && res.statusCode === 200) return [];
  if (res.statusCode < 400) return [`HTTP ${res.statusCode} (want 4xx): ${res.body.slice(0, 160)}`];
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return [`body is not JSON: ${res.body.slice(0, 120)}`];
  }
  const b = body as { code?: unknown; msg?: unknown };
  const out: string[] = [];
  if (typeof b.code !== 'number' || !Number.isInteger(b.code) || b.code >= 0) out.push(`code ${JSON.stringify(b.code)} is not a negative integer`);
  if (typeof b.msg !== 'string' || b.msg === '') out.push(`msg ${JSON.stringify(b.msg)} is not a text`);
  if (Object.keys(b).sort().join(',') !== 'code,msg') out.push(`body has other keys: ${Object.keys(b).join(',')}`);
  return out;
}

/** The shots of a route: each case of each parameter, and a malformed percent-encoding. */
function shotsOf(route: RouteKey, fields: Field[]): Shot[] {
  const shots: Shot[] = [];
  for (const f of fields) for (const kase of casesFor({ ...f, in: 'query' }, [], true)) shots.push({ route, fields, kase });
  // A malformed percent-encoding in a parameter the route reads.
  if (fields.some((f) => f.name === 'symbol'))
    shots.push({ route, fields, kase: null, rawUrl: `${route.url}?symbol=%E0%A4%A&timestamp=${t.ctx.clock.now()}&signature=%ZZ` });
  return shots;
}

/** Runs the table on `app` over `routes`; the problems found, one line each. */
async function runTable(app: FastifyInstance, routes: Array<{ route: RouteKey; fields: Field[] }>): Promise<string[]> {
  const shots = routes.flatMap((r) => shotsOf(r.route, r.fields));
  const results = await inBatches(shots, 8, async (shot) => {
    const res = await send(app, shot);
    const k = shot.kase;
    const rule = ROUTE_ACCEPTS[`${shot.route.method} ${shot.route.url}`]?.[k?.field ?? ''] ?? ACCEPTS[k?.field ?? ''];
    const accepted = k !== null && k.value.kind === 'string' && (rule?.values.includes(k.tableValue) ?? false);
    return problemsOf(res, accepted).map((p) => `${shot.route.method} ${shot.route.url} ${k ? `${k.field}=${k.label.slice(0, 40)}` : 'raw url'}: ${p}`);
  });
  return results.flat();
}

async function rows<T>(query: SQL): Promise<T[]> {
  return ((await t.ctx.db.execute(query)) as { rows: T[] }).rows;
}

/** Tables a keyed request writes by design: the journal position (rejected commands are journaled) and last_used_at. */
const CHANGING_TABLES = new Set(['projection_cursor', 'api_keys']);

/** Everything that must not change: the engine state hash, the user's balances, every table's count and checksum. */
async function snapshot(): Promise<{ hash: string; balances: Record<string, string>; tables: Record<string, string> }> {
  await t.ctx.host.projected();
  const engine = t.ctx.host.engine;
  const balances: Record<string, string> = {};
  for (const a of engine.assets()) {
    for (const acct of ACCOUNT_KINDS) {
      const b = engine.balance(userId, acct, a.code);
      balances[`${acct} ${a.code}`] = `${b.available}/${b.frozen}`;
    }
  }
  const list = await rows<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const tables: Record<string, string> = {};
  for (const { table_name: name } of list) {
    if (CHANGING_TABLES.has(name)) continue;
    const r = await rows<{ n: number; sum: string }>(
      sql.raw(`select count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as sum from "${name}" x`),
    );
    tables[name] = `${r[0]!.n}:${r[0]!.sum}`;
  }
  return { hash: engine.stateHash(), balances, tables };
}

beforeAll(async () => {
  t = await makeTestApp({ ...NO_RATE_LIMITS, binanceWeightPerMin: 0, binanceOrdersPer10s: 0, binanceOrdersPerDay: 0 });
  userId = await registerEngineUser(t.ctx, 'binance-bad@example.com');
  const c = await keyServiceWithoutSecondFactor(t.ctx).create(
    userId,
    { label: 'bad', keyType: 'HMAC_SHA256', spotTrade: true, futuresTrade: true },
    { ip: '', userAgent: '' },
  );
  key = { apiKey: c.key.apiKey, secret: c.secretKey! };
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('bad input on every Binance route', () => {
  it('answers every malformed value with a 4xx { code, msg } and changes nothing', async () => {
    const doc = t.app.swagger() as unknown as Parameters<typeof fieldsOf>[0];
    const routes = listRoutes(t.app)
      .filter((r) => PREFIXES.some((p) => r.url.startsWith(p)))
      .map((route) => {
        const byName = new Map<string, Field>();
        for (const f of fieldsOf(doc, route)) if (!byName.has(f.name)) byName.set(f.name, f);
        return { route, fields: [...byName.values()] };
      });
    // The table covers the spot and futures order entry at least (the routes exist on main).
    const urls = routes.map((r) => `${r.route.method} ${r.route.url}`);
    expect(urls).toEqual(expect.arrayContaining(['POST /api/v3/order', 'GET /api/v3/account', 'POST /fapi/v1/order']));
    // A signed read with the base values reaches its handler (the key and signing work).
    const base = await send(t.app, { route: { method: 'GET', url: '/api/v3/account' }, fields: [], kase: null });
    expect(base.statusCode, base.body).toBe(200);

    const before = await snapshot();
    const problems = await runTable(t.app, routes);
    const after = await snapshot();
    expect(problems, `${problems.length} problems`).toEqual([]);
    expect(after.hash, 'engine state hash').toBe(before.hash);
    expect(after.balances).toEqual(before.balances);
    expect(after.tables).toEqual(before.tables);
  }, 600_000);

  it('fails for a route that answers 5xx or succeeds on a malformed value', async () => {
    const s = await makeTestScope(t.ctx, (scope) => {
      scope.get(
        '/api/v3/testBroken',
        { config: { binance: { weight: 1, security: 'USER_DATA' } }, schema: { querystring: { type: 'object', properties: { qty: { type: 'string' } } } } },
        async (req) => {
          const q = (req.query as { qty?: string }).qty;
          if (q === 'NaN') throw new Error('boom');
          return { ok: true };
        },
      );
    });
    const fields: Field[] = [{ name: 'qty', in: 'query', required: false, schema: { type: 'string' } }];
    const problems = await runTable(s.app, [{ route: { method: 'GET', url: '/api/v3/testBroken' }, fields }]);
    expect(problems.some((p) => p.includes('qty="NaN"') && p.includes('HTTP 500'))).toBe(true);
    expect(problems.some((p) => p.includes('qty="-1"') && p.includes('HTTP 200 (want 4xx)'))).toBe(true);
    await s.app.close();
  });
});
