/**
 * The database's retention (retention.ts) over the rules the domains declare (main/domains.ts DOMAINS), on a real
 * database: PGlite in its worker thread, or PostgreSQL when DATABASE_URL is set. For every table with a rule, a row
 * older than its horizon and one inside it (or one the rule spares: an open order, an unread message, a live
 * session, a user's fill) are written; one run at a fixed now deletes exactly the old ones. Batches are bounded: with
 * 3 rows a statement and 2 statements a run, 7 old rows go 6 in the first run (3 + 3, as the counter hears them) and
 * the last one in the next. The job's counter shows in the metrics' exposition text. A database whose old fills and
 * orders retention deleted still restarts, and once lost is rebuilt from the journal with them back (the projection
 * writes them again; the next run deletes them again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { durableTestSetup, makeTestApp, type TestApp } from '../../../test/helpers';
import { DOMAINS } from '../../main/domains';
import { loadConfig, type RetentionConfig } from '../config/env';
import { createMetrics } from '../metrics/metrics';
import { DAY_MS, retentionBatch, retentionOf, runRetention, startRetentionJob } from './retention';
import { startDomainJobs } from '../domain-module';
import { spotOrders, spotTrades } from '../../domains/spot/spot.tables';
import { perpOrders, perpTrades } from '../../domains/perp/perp.tables';
import { klines } from '../../domains/market-data/market-data.tables';
import { loginCounters, loginFailures, sessions, users } from '../../domains/member/member.tables';
import { operatorLoginFailures, operatorSessions, operators } from '../../domains/admin/admin.tables';
import { captchaChallenges, demoOutbox, verificationCodes } from '../../domains/verification/verification.tables';
import { inboxMessages } from '../../domains/inbox/inbox.tables';
import { securityEvents } from '../../domains/security/security.tables';

/** The run's now: 2026-06-01T00:00:00Z. */
const NOW = Date.UTC(2026, 5, 1);
const daysAgo = (d: number) => NOW - d * DAY_MS;
const dateDaysAgo = (d: number) => new Date(daysAgo(d));
const DEFAULTS: RetentionConfig = loadConfig({}).retention;
const RULES = retentionOf(DOMAINS);

const spotTrade = (id: bigint, maker: string, taker: string, ts: number): typeof spotTrades.$inferInsert => ({
  id,
  symbol: 'BTC/USDT',
  price: '100',
  quantity: '1',
  quoteAmount: '100',
  takerSide: 'BUY',
  makerOrderId: id * 10n,
  takerOrderId: id * 10n + 1n,
  makerUserId: maker,
  takerUserId: taker,
  makerFee: '0',
  makerFeeAsset: 'USDT',
  takerFee: '0',
  takerFeeAsset: 'BTC',
  ts,
  seq: 1,
});
const perpTrade = (id: bigint, maker: string, taker: string, ts: number): typeof perpTrades.$inferInsert => ({
  id,
  symbol: 'BTCUSDT',
  kind: 'BOOK',
  price: '100',
  quantity: '1',
  quoteAmount: '100',
  takerSide: 'BUY',
  makerUserId: maker,
  takerUserId: taker,
  makerFee: '0',
  takerFee: '0',
  makerRealizedPnl: '0',
  takerRealizedPnl: '0',
  ts,
  seq: 1,
});
const spotOrder = (id: bigint, status: string, filledQty: string, updatedTs: number): typeof spotOrders.$inferInsert => ({
  id,
  userId: '7',
  symbol: 'BTC/USDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '100',
  quantity: '1',
  filledQty,
  filledQuote: '0',
  fee: '0',
  feeAsset: 'BTC',
  status,
  closed: status !== 'NEW',
  createdTs: updatedTs,
  updatedTs,
  seq: 1,
});
const perpOrder = (id: bigint, status: string, filledQty: string, updatedTs: number): typeof perpOrders.$inferInsert => ({
  id,
  userId: '7',
  symbol: 'BTCUSDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '100',
  quantity: '1',
  lots: 1,
  reduceOnly: false,
  tradeType: 'OPEN',
  leverage: 10,
  marginMode: 'CROSS',
  filledQty,
  filledQuote: '0',
  fee: '0',
  realizedPnl: '0',
  hold: '0',
  status,
  closed: status !== 'NEW',
  createdTs: updatedTs,
  updatedTs,
  seq: 1,
});
const bar = (period: string, time: number): typeof klines.$inferInsert => ({
  symbol: 'BTC/USDT',
  type: 'SPOT',
  period,
  time,
  open: '1',
  high: '1',
  low: '1',
  close: '1',
  volume: '0',
  quoteVolume: '0',
});

describe('database retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The ids (or another column, as text) left in `table`, sorted. */
  async function left(table: string, column = 'id'): Promise<string[]> {
    const r = (await t.ctx.db.execute(sql.raw(`select (${column})::text as v from ${table} order by 1`))) as unknown as { rows: Array<{ v: string }> };
    return r.rows.map((x) => x.v);
  }

  it('declares a rule for each high-volume table', () => {
    expect(RULES.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'spot_trades:market',
        'spot_trades:user',
        'spot_orders:unfilled',
        'spot_orders:filled',
        'perp_trades:market',
        'perp_orders:unfilled',
        'klines:1min',
        'klines:5min',
        'klines:1hour',
        'sessions',
        'operator_sessions',
        'verification_codes',
        'captcha_challenges',
        'inbox_messages:read',
        'security_events',
      ]),
    );
  });

  it('deletes the rows older than their horizon and keeps the recent ones and the ones the rules spare', async () => {
    const db = t.ctx.db;
    // Fills: bots' ("bot-1") older than 30 days go; a user's (digits) stay with RETENTION_USER_TRADES_DAYS=0.
    await db
      .insert(spotTrades)
      .values([
        spotTrade(1n, 'bot-1', 'bot-2', daysAgo(31)),
        spotTrade(2n, 'bot-1', 'bot-2', daysAgo(29)),
        spotTrade(3n, '7', 'bot-2', daysAgo(400)),
        spotTrade(4n, 'bot-1', '8', daysAgo(400)),
      ]);
    await db
      .insert(perpTrades)
      .values([perpTrade(1n, 'bot-1', 'bot-2', daysAgo(31)), perpTrade(2n, 'bot-1', 'bot-2', daysAgo(1)), perpTrade(3n, '7', 'bot-2', daysAgo(400))]);
    // Orders: closed without a fill older than 90 days go; filled, open or recent ones stay.
    await db
      .insert(spotOrders)
      .values([
        spotOrder(1n, 'CANCELED', '0', daysAgo(91)),
        spotOrder(2n, 'CANCELED', '0', daysAgo(89)),
        spotOrder(3n, 'FILLED', '1', daysAgo(400)),
        spotOrder(4n, 'NEW', '0', daysAgo(400)),
        spotOrder(5n, 'EXPIRED', '0', daysAgo(200)),
      ]);
    await db
      .insert(perpOrders)
      .values([perpOrder(1n, 'CANCELED', '0', daysAgo(91)), perpOrder(2n, 'CANCELED', '1', daysAgo(400)), perpOrder(3n, 'NEW', '0', daysAgo(400))]);
    // K-lines: 1min beyond 30 days, 5min beyond 180; 1hour kept for ever.
    await db
      .insert(klines)
      .values([bar('1min', daysAgo(31)), bar('1min', daysAgo(29)), bar('5min', daysAgo(181)), bar('5min', daysAgo(100)), bar('1hour', daysAgo(3000))]);
    // Sessions: expired or revoked more than 30 days ago go; a live one (expiring later) stays.
    await db.insert(users).values({ id: 7n, uuid: 'u7', passwordHash: 'x', welCode: 'W7' });
    await db.insert(sessions).values([
      { tokenHash: 's-expired-old', userId: 7n, createdAt: dateDaysAgo(60), expiresAt: dateDaysAgo(31) },
      { tokenHash: 's-revoked-old', userId: 7n, createdAt: dateDaysAgo(60), expiresAt: dateDaysAgo(-300), revokedAt: dateDaysAgo(31) },
      { tokenHash: 's-expired-recent', userId: 7n, createdAt: dateDaysAgo(40), expiresAt: dateDaysAgo(10) },
      { tokenHash: 's-live', userId: 7n, createdAt: dateDaysAgo(100), expiresAt: dateDaysAgo(-30) },
    ]);
    await db.insert(loginFailures).values([
      { account: 'old', ip: '1.1.1.1', createdAt: dateDaysAgo(8) },
      { account: 'new', ip: '1.1.1.1', createdAt: dateDaysAgo(1) },
    ]);
    await db.insert(loginCounters).values([
      { account: 'old', ip: '', attempts: 1, lastAt: dateDaysAgo(8) },
      { account: 'new', ip: '', attempts: 1, lastAt: dateDaysAgo(1) },
    ]);
    const [op] = await db.insert(operators).values({ email: 'op@x', name: 'op', role: 'admin', passwordHash: 'x', totpSecret: 'x' }).returning();
    await db.insert(operatorSessions).values([
      { tokenHash: 'o-old', operatorId: op!.id, createdAt: dateDaysAgo(40), lastSeenAt: dateDaysAgo(31) },
      { tokenHash: 'o-new', operatorId: op!.id, createdAt: dateDaysAgo(2), lastSeenAt: dateDaysAgo(1) },
    ]);
    await db.insert(operatorLoginFailures).values([
      { email: 'old', ip: '1.1.1.1', at: dateDaysAgo(8) },
      { email: 'new', ip: '1.1.1.1', at: dateDaysAgo(6) },
    ]);
    // Codes and puzzles: 7 days after they expired.
    await db.insert(verificationCodes).values([
      { account: 'old', type: 'REGISTER', salt: 's', codeHash: 'h', ip: '1', createdAt: dateDaysAgo(9), expiresAt: dateDaysAgo(8), consumedAt: dateDaysAgo(9) },
      { account: 'new', type: 'REGISTER', salt: 's', codeHash: 'h', ip: '1', createdAt: dateDaysAgo(6), expiresAt: dateDaysAgo(6) },
    ]);
    await db.insert(captchaChallenges).values([
      { challenge: 'old', randomCode: 'r', answerX: 1, createdAt: dateDaysAgo(9), expiresAt: dateDaysAgo(8) },
      { challenge: 'pass-recent', randomCode: 'r', answerX: 1, createdAt: dateDaysAgo(9), expiresAt: dateDaysAgo(8), passExpiresAt: dateDaysAgo(1) },
      { challenge: 'new', randomCode: 'r', answerX: 1, createdAt: dateDaysAgo(1), expiresAt: dateDaysAgo(1) },
    ]);
    await db.insert(demoOutbox).values([
      { account: 'old', type: 'REGISTER', code: '1', createdAt: dateDaysAgo(8) },
      { account: 'new', type: 'REGISTER', code: '2', createdAt: dateDaysAgo(1) },
    ]);
    // Inbox: read and older than 90 days go; unread old ones and read recent ones stay.
    await db.insert(inboxMessages).values([
      { userId: 7n, key: 'read-old', category: 'TRADE', kind: 'K', params: '{}', ts: daysAgo(91), readAt: dateDaysAgo(80) },
      { userId: 7n, key: 'unread-old', category: 'TRADE', kind: 'K', params: '{}', ts: daysAgo(400) },
      { userId: 7n, key: 'read-new', category: 'TRADE', kind: 'K', params: '{}', ts: daysAgo(89), readAt: dateDaysAgo(80) },
    ]);
    await db.insert(securityEvents).values([
      { userId: 7n, type: 'LOGIN', detail: 'old', createdAt: dateDaysAgo(366) },
      { userId: 7n, type: 'LOGIN', detail: 'new', createdAt: dateDaysAgo(364) },
    ]);

    const report = await runRetention(db, RULES, { retention: DEFAULTS, now: NOW });

    expect(report).toEqual({
      'spot_trades:market': 1,
      'perp_trades:market': 1,
      'spot_orders:unfilled': 2,
      'perp_orders:unfilled': 1,
      'klines:1min': 1,
      'klines:5min': 1,
      sessions: 2,
      login_failures: 1,
      login_counters: 1,
      operator_sessions: 1,
      operator_login_failures: 1,
      verification_codes: 1,
      captcha_challenges: 1,
      demo_outbox: 1,
      'inbox_messages:read': 1,
      security_events: 1,
    });
    expect(await left('spot_trades')).toEqual(['2', '3', '4']);
    expect(await left('perp_trades')).toEqual(['2', '3']);
    expect(await left('spot_orders')).toEqual(['2', '3', '4']);
    expect(await left('perp_orders')).toEqual(['2', '3']);
    expect(await left('klines', `period || ':' || (${NOW} - time) / ${DAY_MS}`)).toEqual(['1hour:3000', '1min:29', '5min:100']);
    expect(await left('sessions', 'token_hash')).toEqual(['s-expired-recent', 's-live']);
    expect(await left('login_failures', 'account')).toEqual(['new']);
    expect(await left('login_counters', 'account')).toEqual(['new']);
    expect(await left('operator_sessions', 'token_hash')).toEqual(['o-new']);
    expect(await left('operator_login_failures', 'email')).toEqual(['new']);
    expect(await left('verification_codes', 'account')).toEqual(['new']);
    expect(await left('captcha_challenges', 'challenge')).toEqual(['new', 'pass-recent']);
    expect(await left('demo_outbox', 'account')).toEqual(['new']);
    expect(await left('inbox_messages', 'key')).toEqual(['read-new', 'unread-old']);
    expect(await left('security_events', 'detail')).toEqual(['new']);

    // A second run finds nothing more; a horizon of 0 keeps for ever, a shorter one deletes the user's fills too.
    expect(await runRetention(db, RULES, { retention: DEFAULTS, now: NOW })).toEqual({});
    expect(await runRetention(db, RULES, { retention: { ...DEFAULTS, userTradesDays: 365, securityEventsDays: 0 }, now: NOW })).toEqual({
      'spot_trades:user': 2,
      'perp_trades:user': 1,
    });
    expect(await left('spot_trades')).toEqual(['2']);
  });

  it("finds every rule's old rows through an index led by its time column (EXPLAIN of each batch statement)", async () => {
    // With enable_seqscan off the planner still picks a sequential scan when no index serves the condition, and it
    // may read a whole index whose first column the condition does not bound (e.g. (symbol, ts) for ts < cutoff): both
    // read the whole table or index on every batch. Each rule's plan must scan only indexes whose first column its
    // Index Cond bounds.
    const wrong: Record<string, string[]> = {};
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const rule of RULES) {
        const plan = (await tx.execute(sql`explain ${retentionBatch(rule, NOW - 30 * DAY_MS, 1000)}`)) as unknown as { rows: Array<Record<string, string>> };
        const lines = plan.rows.map((r) => (Object.values(r)[0] ?? '').trim());
        const found: string[] = [];
        for (let i = 0; i < lines.length; i++) {
          const seq = /Seq Scan on (\w+)/.exec(lines[i]!);
          if (seq) found.push(`sequential scan of ${seq[1]}`);
          const scan = /Index (?:Only )?Scan (?:using|on) (\w+)/.exec(lines[i]!);
          if (!scan) continue;
          const cond = /^Index Cond: (.*)$/.exec(lines[i + 1] ?? '')?.[1] ?? '';
          const def = (await tx.execute(sql`select indexdef from pg_indexes where indexname = ${scan[1]}`)) as unknown as { rows: Array<{ indexdef: string }> };
          const first = /USING \w+ \((\w+)/.exec(def.rows[0]?.indexdef ?? '')?.[1] ?? '?';
          if (!new RegExp(`\\b${first}\\b`).test(cond)) found.push(`${scan[1]} (led by ${first}) for ${cond || 'no condition'}`);
        }
        if (found.length > 0 || !lines.some((l) => /Index (?:Only )?Scan/.test(l))) wrong[rule.name] = found;
      }
    });
    expect(wrong).toEqual({});
  });

  it('deletes in bounded batches: at most batchRows a statement and maxBatchesPerRule statements a run', async () => {
    const db = t.ctx.db;
    await db.insert(spotTrades).values([10n, 11n, 12n, 13n, 14n, 15n, 16n].map((id) => spotTrade(id, 'bot-1', 'bot-2', daysAgo(40))));
    const metrics = createMetrics();
    const statements: number[] = [];
    const opts = {
      retention: { ...DEFAULTS, batchRows: 3, maxBatchesPerRule: 2 },
      now: NOW,
      onDeleted: (rule: string, rows: number) => {
        statements.push(rows);
        metrics.retentionDeleted(rule, rows);
      },
    };
    expect(await runRetention(db, RULES, opts)).toEqual({ 'spot_trades:market': 6 });
    expect(statements).toEqual([3, 3]);
    expect(await runRetention(db, RULES, opts)).toEqual({ 'spot_trades:market': 1 });
    expect(statements).toEqual([3, 3, 1]);
    expect((await left('spot_trades')).filter((id) => id.length > 1)).toEqual([]);
    expect(await metrics.text()).toContain('exchange_retention_deleted_rows_total{rule="spot_trades:market"} 7');
  });

  it("the job runs at start where the chain jobs run (started with the domains' jobs), counts and logs; elsewhere it does nothing", async () => {
    const db = t.ctx.db;
    await db.insert(spotTrades).values([20n, 21n].map((id) => spotTrade(id, 'bot-1', 'bot-2', daysAgo(40))));
    const lines: Array<{ fields: unknown; msg: string }> = [];
    const log = { ...t.ctx.log, info: (fields: unknown, msg: string) => void lines.push({ fields, msg }), error: () => {} } as unknown as typeof t.ctx.log;
    const metrics = createMetrics();
    const clock = { now: () => NOW };
    // Not the chain jobs' process: nothing runs.
    startRetentionJob({ config: { retention: DEFAULTS, chainJobs: false }, db, log, clock, metrics }, RULES)();
    await new Promise((r) => setTimeout(r, 300));
    expect((await left('spot_trades')).filter((id) => id.length > 1)).toEqual(['20', '21']);
    // The domains' jobs of the module list, with the platform's retention job among them.
    const stop = await startDomainJobs({ config: { retention: DEFAULTS, chainJobs: true }, db, log, clock, metrics }, [{ name: 'spot', retention: RULES }]);
    try {
      for (let i = 0; i < 200 && !lines.some((l) => l.msg === 'retention: old rows deleted'); i++) await new Promise((r) => setTimeout(r, 50));
      expect(lines.find((l) => l.msg === 'retention: old rows deleted')?.fields).toEqual({ deleted: { 'spot_trades:market': 2 } });
      expect(await metrics.text()).toContain('exchange_retention_deleted_rows_total{rule="spot_trades:market"} 2');
      expect((await left('spot_trades')).filter((id) => id.length > 1)).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('retention and the projection', () => {
  it('a restart after retention works, and a lost database is rebuilt from the journal with the deleted rows back', async () => {
    const setup = await durableTestSetup('exch-retention-');
    let t = await setup.open();
    try {
      const submit = async (cmd: Record<string, unknown>) => {
        const r = await t.ctx.host.submit(cmd as never);
        expect(r.code, `${String(cmd.type)} ${String(cmd.clientOrderId ?? '')}`).toBe('ok');
        return r;
      };
      await submit({ type: 'deposit', userId: '7', asset: 'USDT', account: 'SPOT', amount: 10n ** 14n, from: '@faucet' });
      await submit({ type: 'deposit', userId: '8', asset: 'BTC', account: 'SPOT', amount: 10n ** 10n, from: '@faucet' });
      const order = (userId: string, side: string, price: bigint, clientOrderId: string) =>
        submit({ type: 'placeOrder', userId, symbol: 'BTC/USDT', side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: 1000n, clientOrderId });
      await order('8', 'SELL', 5_000_000n, 's1');
      await order('7', 'BUY', 5_000_000n, 'b1');
      await order('7', 'BUY', 4_000_000n, 'b2');
      await submit({ type: 'cancelOrder', userId: '7', clientOrderId: 'b2' });
      await t.ctx.host.projected();
      const trades = await left(t, 'spot_trades');
      const orders = await left(t, 'spot_orders');
      expect([trades.length, orders.length]).toEqual([1, 3]);

      // A year on, every fill and closed order may go.
      const yearOn = { retention: { ...DEFAULTS, userTradesDays: 1, filledOrdersDays: 1, unfilledOrdersDays: 1 }, now: Date.now() + 365 * DAY_MS };
      // (The k-line bars the fill made may have been written by then too, and a year on they go as well: whether they
      // were is a matter of the bar writer's timing, so only the spot rows are counted exactly.)
      const yearReport = await runRetention(t.ctx.db, RULES, yearOn);
      const spotRows = Object.fromEntries(Object.entries(yearReport).filter(([rule]) => !rule.startsWith('klines:')));
      expect(spotRows).toEqual({ 'spot_trades:user': 1, 'spot_orders:unfilled': 1, 'spot_orders:filled': 2 });
      expect([await left(t, 'spot_trades'), await left(t, 'spot_orders')]).toEqual([[], []]);

      // Restart on the same database: recovery and projection go on, new fills are written.
      await t.close();
      t = await setup.open();
      await order('8', 'SELL', 5_000_000n, 's2');
      await order('7', 'BUY', 5_000_000n, 'b3');
      await t.ctx.host.projected();
      expect((await left(t, 'spot_trades')).length).toBe(1);

      // A lost database: the journal brings back every fill and order, the deleted ones included.
      await t.close();
      await setup.loseDatabase();
      t = await setup.open();
      await t.ctx.host.projected();
      expect((await left(t, 'spot_trades')).length).toBe(2);
      expect((await left(t, 'spot_orders')).length).toBe(5);
      expect(await left(t, 'spot_trades')).toEqual(expect.arrayContaining(trades));
    } finally {
      await t.close();
      await setup.dispose();
    }
  });
});

/** The ids left in `table` of `t`'s database, sorted. */
async function left(t: TestApp, table: string): Promise<string[]> {
  const r = (await t.ctx.db.execute(sql.raw(`select id::text as v from ${table} order by 1`))) as unknown as { rows: Array<{ v: string }> };
  return r.rows.map((x) => x.v);
}
