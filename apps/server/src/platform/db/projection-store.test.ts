/**
 * The one generic upsert of the projection (projection-store.ts), rule by rule, on PGlite and in the in-memory store of
 * the fault simulator, which must agree row for row:
 * - once: a row whose key exists is ignored (a replay writes nothing);
 * - upsert with `newer`: an older state never replaces a newer one, an equal or newer one replaces the `set` fields
 *   only;
 * - upsert with a strict `newer`, `changed` and `clear` (the inbox): a newer row with the same parameters changes
 *   nothing, one with new parameters replaces them and clears the read mark;
 * - upsert with `fill` (a credited deposit): the stored time is kept when there is one;
 * - the cursor only moves forward, and a failing batch writes nothing of itself (one transaction);
 * - within one batch the projector's buffer keeps the last row of a key, with the earlier row's `keepFirst` fields;
 * - `projectedTable` refuses a field its table does not have.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { openDb, type DbHandle } from './client';
import { inboxMessages } from '../../domains/inbox/inbox.tables';
import { spotTrades } from '../../domains/spot/spot.tables';
import { users } from '../../domains/member/member.tables';
import { walletDeposits } from '../../domains/wallet/chain.tables';
import { localProjectionStore, MemoryProjectionStore, tableIndex } from './projection-store';
import { projectedTable, tableRows, type ProjectionBatch, type TableRows } from './projection-types';
import { RowBuffer } from '../engine-host/projector';

const TRADES = projectedTable(spotTrades, { key: ['id'], mode: 'once' });
const USERS = projectedTable(users, { key: ['id'], mode: 'upsert', set: ['nickName'], keepFirst: ['createdAt'] });
const INBOX = projectedTable(inboxMessages, {
  key: ['userId', 'key'],
  mode: 'upsert',
  set: ['params', 'ts', 'seq'],
  clear: ['readAt'],
  newer: { field: 'seq', strict: true, changed: ['params'] },
});
const DEPOSITS = projectedTable(walletDeposits, {
  key: ['chain', 'txHash', 'logIndex'],
  mode: 'upsert',
  set: ['status', 'creditedSeq', 'updatedAt'],
  fill: ['creditedAt'],
});
const NEWER_USERS = projectedTable(users, { key: ['id'], mode: 'upsert', set: ['nickName', 'cardState'], newer: { field: 'cardState' } });

const trade = (id: bigint, price: string): typeof spotTrades.$inferInsert => ({
  id,
  symbol: 'BTC/USDT',
  price,
  quantity: '1',
  quoteAmount: price,
  takerSide: 'BUY',
  makerOrderId: 1n,
  takerOrderId: 2n,
  makerUserId: '1',
  takerUserId: '2',
  makerFee: '0',
  makerFeeAsset: 'USDT',
  takerFee: '0',
  takerFeeAsset: 'BTC',
  ts: 5,
  seq: 1,
});
const user = (id: bigint, nickName: string, cardState = '', createdAt = new Date(1_000)): typeof users.$inferInsert => ({
  id,
  uuid: `u${id}`,
  mail: `${id}@x.test`,
  phone: null,
  areaCode: '86',
  passwordHash: 'h',
  nickName,
  welCode: `W${id}`,
  invitedBy: null,
  cardNo: '',
  cardState,
  createdAt,
});
const message = (params: string, seq: number): Omit<typeof inboxMessages.$inferInsert, 'id' | 'readAt'> => ({
  userId: 1n,
  key: 'spot:9',
  category: 'TRADE',
  kind: 'SPOT_FILLED',
  params,
  ts: seq * 10,
  seq,
});
const deposit = (creditedSeq: number, at: number): typeof walletDeposits.$inferInsert => ({
  userId: 1n,
  coin: 'USDT',
  chain: 'ETH',
  txHash: '0xabc',
  logIndex: 0,
  blockNumber: 7,
  blockHash: '',
  fromAddress: '',
  toAddress: '0xdef',
  amount: '5',
  chainAmount: '',
  status: 'CREDITED',
  creditedSeq,
  createdAt: new Date(at),
  creditedAt: new Date(at),
  updatedAt: new Date(at),
});

const batch = (seq: number, ...tables: TableRows[]): ProjectionBatch => ({ journalId: 'j', seq, tables });
const rows = <Row extends object>(table: { rule: TableRows['rule']; row?: Row }, ...r: Row[]): TableRows => ({
  rule: table.rule,
  rows: r as Record<string, unknown>[],
});

describe('the projection store: one generic upsert, the same on PGlite and in memory', () => {
  let h: DbHandle;
  beforeAll(async () => {
    h = await openDb({ dataDir: 'memory://', worker: false });
  });
  afterAll(async () => {
    await h.close();
  });

  it('writes every rule the same way in both stores', async () => {
    const db = localProjectionStore(h.db, tableIndex({ users, inboxMessages, spotTrades, walletDeposits }));
    const mem = new MemoryProjectionStore();
    const both = async (b: ProjectionBatch) => {
      await db.write(b);
      await mem.write(b);
    };
    await both(batch(1, rows(USERS, user(1n, 'a')), rows(TRADES, trade(10n, '100')), rows(INBOX, message('{"q":"1"}', 3)), rows(DEPOSITS, deposit(4, 4_000))));
    // The user reads the message (a mark only the database keeps).
    await h.db.update(inboxMessages).set({ readAt: new Date(50) });
    // A replay of the same trade with another price, the same message again, the deposit credited again later.
    await both(
      batch(2, rows(TRADES, trade(10n, '999')), rows(INBOX, message('{"q":"1"}', 5)), rows(DEPOSITS, { ...deposit(6, 9_000), creditedAt: new Date(9_000) })),
    );
    expect((await h.db.select().from(spotTrades))[0]!.price).toBe('100');
    expect(mem.rows<typeof spotTrades.$inferInsert>('spot_trades').get('10')!.price).toBe('100');
    // Same parameters at a newer position: nothing changes, the message stays read.
    const [m1] = await h.db.select().from(inboxMessages);
    expect(m1).toMatchObject({ params: '{"q":"1"}', seq: 3, readAt: new Date(50) });
    expect(mem.rows<typeof inboxMessages.$inferInsert>('inbox_messages').get('1:spot:9')).toMatchObject({ seq: 3 });
    // The deposit: the newer fields replaced, the credited time kept.
    const [d1] = await h.db.select().from(walletDeposits);
    expect(d1).toMatchObject({ creditedSeq: 6, creditedAt: new Date(4_000), updatedAt: new Date(9_000) });
    expect(mem.rows<typeof walletDeposits.$inferInsert>('wallet_deposits').get('ETH:0xabc:0')).toMatchObject({
      creditedSeq: 6,
      creditedAt: new Date(4_000),
      updatedAt: new Date(9_000),
    });

    // New parameters at an older position: refused; at a newer one: replaced and unread again.
    await both(batch(3, rows(INBOX, message('{"q":"2"}', 2))));
    expect((await h.db.select().from(inboxMessages))[0]).toMatchObject({ params: '{"q":"1"}', readAt: new Date(50) });
    await both(batch(4, rows(INBOX, message('{"q":"2"}', 8))));
    expect((await h.db.select().from(inboxMessages))[0]).toMatchObject({ params: '{"q":"2"}', seq: 8, readAt: null });
    expect(mem.rows<typeof inboxMessages.$inferInsert>('inbox_messages').get('1:spot:9')).toMatchObject({ params: '{"q":"2"}', seq: 8 });

    // upsert without `newer`: the `set` fields only (the registration time and the rest stay); with `newer`, never
    // an older value of its field over a newer one.
    await both(batch(5, rows(USERS, { ...user(1n, 'b'), createdAt: new Date(7_000), welCode: 'other' })));
    expect((await h.db.select().from(users).where(eq(users.id, 1n)))[0]).toMatchObject({ nickName: 'b', createdAt: new Date(1_000), welCode: 'W1' });
    expect(mem.rows<typeof users.$inferInsert>('users').get('1')).toMatchObject({ nickName: 'b', createdAt: new Date(1_000), welCode: 'W1' });
    await both(batch(6, rows(NEWER_USERS, user(1n, 'c', '5'))));
    await both(batch(7, rows(NEWER_USERS, user(1n, 'old', '3'))));
    expect((await h.db.select().from(users).where(eq(users.id, 1n)))[0]).toMatchObject({ nickName: 'c', cardState: '5' });
    expect(mem.rows<typeof users.$inferInsert>('users').get('1')).toMatchObject({ nickName: 'c', cardState: '5' });

    // The cursor never moves back.
    await both(batch(2));
    expect(await db.load()).toEqual({ journalId: 'j', cursor: 7 });
    expect(await mem.load()).toEqual({ journalId: 'j', cursor: 7 });
  });

  it('writes nothing of a batch that fails (one transaction)', async () => {
    const db = localProjectionStore(h.db, tableIndex({ users, inboxMessages, spotTrades, walletDeposits }));
    const before = await h.db.select().from(spotTrades).orderBy(asc(spotTrades.id));
    // The second table's row breaks a NOT NULL column: the first table's new trade is not written either.
    const bad = { ...user(2n, 'x'), uuid: null } as unknown as typeof users.$inferInsert;
    await expect(db.write(batch(9, rows(TRADES, trade(11n, '1')), rows(USERS, bad)))).rejects.toThrow();
    expect(await h.db.select().from(spotTrades).orderBy(asc(spotTrades.id))).toEqual(before);
    expect((await db.load()).cursor).toBe(7);
  });

  it('merges a key within a batch in the projector buffer: the last row, with the first one keepFirst fields', () => {
    const buf = new RowBuffer([TRADES, USERS]);
    buf.put(USERS, user(3n, 'first', '', new Date(1)));
    buf.put(TRADES, trade(20n, '1'));
    buf.put(USERS, user(3n, 'second', '', new Date(2)));
    buf.put(TRADES, trade(20n, '2'));
    expect(buf.count).toBe(4);
    const tables = buf.take();
    expect(tables.map((t) => t.rule.table)).toEqual(['spot_trades', 'users']);
    expect(tableRows(tables, USERS)).toEqual([{ ...user(3n, 'second'), createdAt: new Date(1) }]);
    // A once table keeps every row; the database keeps the first.
    expect(tableRows(tables, TRADES).map((t) => t.price)).toEqual(['1', '2']);
    expect(buf.take()).toEqual([]);
    expect(buf.count).toBe(0);
  });

  it('refuses a rule naming a field its table does not have', () => {
    expect(() => projectedTable(users, { key: ['id'], mode: 'upsert', set: ['nickname' as 'nickName'] })).toThrow('projectedTable users: no field nickname');
    expect(() => projectedTable(users, { key: [], mode: 'once' })).toThrow('a key is needed');
  });
});
