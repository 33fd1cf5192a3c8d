/**
 * The hub's fan-out over fake sockets (no network, a clock passed in): the frames it writes (textFrame, RFC 6455
 * lengths), updates coalesced per flush (depth merged over its seq range, trades newest first), and the slow-consumer
 * policy: a socket over SLOW_BUFFERED_BYTES is skipped and counted, gets a depth snapshot instead of the next delta
 * once drained, and is closed 1013 when it stays over the limit STALL_CLOSE_MS. A property test checks that whatever
 * the updates and however they fall into flushes, a subscriber's book rebuilt from what it was sent equals the book.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type WebSocket from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import type { MarketUpdate } from '../../domains/market-data/market-data.service';
import { CLOSE_SLOW_CONSUMER, SLOW_BUFFERED_BYTES, STALL_CLOSE_MS, createWsHub, textFrame, type WsHubDeps } from './ws.hub';

type Msg = Record<string, unknown> & { channel: string };

/** Splits written bytes into WebSocket text frames (unmasked, as a server sends them) and parses each as JSON. */
function decode(bufs: Buffer[]): Msg[] {
  const all = Buffer.concat(bufs);
  const out: Msg[] = [];
  let at = 0;
  while (at < all.length) {
    expect(all[at]).toBe(0x81);
    let len = (all[at + 1] as number) & 0x7f;
    let head = 2;
    if (len === 126) {
      len = all.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      len = all.readUInt32BE(at + 2) * 2 ** 32 + all.readUInt32BE(at + 6);
      head = 10;
    }
    out.push(JSON.parse(all.subarray(at + head, at + head + len).toString('utf8')) as Msg);
    at += head + len;
  }
  return out;
}

/** A socket as the hub sees it: what is written to its TCP side is kept; bufferedAmount is set by the test. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  extensions = '';
  closedWith: { code: number; reason: string } | null = null;
  readonly written: Buffer[] = [];
  readonly _socket = {
    write: (b: Buffer) => {
      this.written.push(b);
      return true;
    },
    cork: () => {},
    uncork: () => {},
  };
  send(data: string | Buffer): void {
    this.written.push(textFrame(Buffer.from(data)));
  }
  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 2;
  }
  /** Every message written since the last call. */
  take(): Msg[] {
    const msgs = decode(this.written);
    this.written.length = 0;
    return msgs;
  }
  subscribe(channel: string): void {
    this.emit('message', Buffer.from(JSON.stringify({ op: 'subscribe', channel, pairsName: 'BTC/USDT' })), false);
  }
}

/** A market-data service with one book (levels 'side|price' -> qty), its seq and the trades, fed by `update`. */
function fakeMarket() {
  const book = new Map<string, string>();
  let seq = 0;
  let tradeId = 0;
  const listeners = new Set<(u: MarketUpdate) => void>();
  const rows = (side: string) => [...book].filter(([k]) => k.startsWith(side)).map(([k, q]) => [k.slice(side.length + 1), q] as [string, string]);
  return {
    service: {
      subscribe(l: (u: MarketUpdate) => void) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      listing: () => ({}),
      depth: () => ({ seq, bids: rows('B'), asks: rows('A') }),
      trades: () => [],
      pair: () => undefined,
      klines: async () => [],
    },
    book,
    /** Applies level changes (qty '0' removes) as one engine command and publishes the depth update. */
    update(bids: Array<[string, string]>, asks: Array<[string, string]>): void {
      const set = (key: string, q: string) => {
        if (q === '0') book.delete(key);
        else book.set(key, q);
      };
      for (const [p, q] of bids) set(`B|${p}`, q);
      for (const [p, q] of asks) set(`A|${p}`, q);
      const prevSeq = seq++;
      for (const l of listeners) l({ kind: 'depth', symbol: 'BTC/USDT', seq, prevSeq, bids, asks });
    },
    trade(): string {
      const id = String(++tradeId);
      for (const l of listeners) l({ kind: 'trades', symbol: 'BTC/USDT', trades: [{ id, price: '1', amount: '1', side: 'BUY', time: 0 }] });
      return id;
    },
  };
}

function makeHub(clock: { t: number }) {
  const market = fakeMarket();
  const log = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as unknown as FastifyBaseLogger;
  const deps: WsHubDeps = {
    marketData: market.service as unknown as WsHubDeps['marketData'],
    host: { onEvents: () => () => {}, engine: {} } as unknown as WsHubDeps['host'],
    members: { authenticate: async () => null },
    hooks: { sessionsEnded: [] },
    limits: { messagesPerSec: 0, messageBurst: 0, authFailuresPerSocket: 0 },
    log,
    now: () => clock.t,
    flushMs: 0,
  };
  const hub = createWsHub(deps);
  const open = () => {
    const s = new FakeSocket();
    hub.connect(s as unknown as WebSocket, 'en');
    return s;
  };
  return { hub, market, open };
}

/** Lets the microtask flush run. */
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('textFrame', () => {
  it('writes the 7-bit, 16-bit and 64-bit payload lengths of RFC 6455', () => {
    for (const n of [0, 125, 126, 65535, 65536, 70_000]) {
      const payload = Buffer.from(JSON.stringify({ channel: 'x', pad: 'a'.repeat(Math.max(0, n - 25)) }));
      const f = textFrame(payload);
      expect(decode([f])[0]).toEqual(JSON.parse(payload.toString()));
      const head = payload.length < 126 ? 2 : payload.length < 65536 ? 4 : 10;
      expect(f.length).toBe(head + payload.length);
    }
  });
});

describe('coalescing', () => {
  it('merges the updates of one engine batch into one delta and one trades push, newest trade first', async () => {
    const clock = { t: 1000 };
    const { hub, market, open } = makeHub(clock);
    const s = open();
    s.subscribe('depth');
    s.subscribe('trades');
    await tick();
    const [snap] = s.take().filter((m) => m.channel === 'depth');
    expect(snap).toMatchObject({ kind: 'snapshot', seq: 0 });
    market.update([['100', '1']], []);
    const t1 = market.trade();
    market.update(
      [
        ['100', '3'],
        ['99', '2'],
      ],
      [['101', '5']],
    );
    const t2 = market.trade();
    await tick();
    const msgs = s.take();
    expect(msgs).toEqual([
      {
        channel: 'depth',
        pairsName: 'BTC/USDT',
        type: 'SPOT',
        kind: 'delta',
        seq: 2,
        prevSeq: 0,
        data: {
          bids: [
            ['100', '3'],
            ['99', '2'],
          ],
          asks: [['101', '5']],
        },
      },
      { channel: 'trades', pairsName: 'BTC/USDT', type: 'SPOT', data: [expect.objectContaining({ id: t2 }), expect.objectContaining({ id: t1 })] },
    ]);
    // Both went out in one write (one system call per socket and flush).
    market.update([['98', '1']], []);
    market.trade();
    await tick();
    expect(s.written).toHaveLength(1);
    expect(hub.stats()).toMatchObject({ sockets: 1, subscribers: { depth: 1, trades: 1 }, skippedPushes: 0 });
    hub.close();
  });
});

describe('slow consumers', () => {
  it('skips a socket over the backlog limit (counted), resyncs its depth by a snapshot once drained, and closes it 1013 when it stays slow', async () => {
    const clock = { t: 1000 };
    const { hub, market, open } = makeHub(clock);
    const fast = open();
    const slow = open();
    for (const s of [fast, slow]) {
      s.subscribe('depth');
      s.subscribe('trades');
    }
    await tick();
    fast.take();
    slow.take();

    slow.bufferedAmount = SLOW_BUFFERED_BYTES + 1;
    market.update([['100', '1']], []);
    market.trade();
    await tick();
    expect(fast.take().map((m) => m.channel)).toEqual(['depth', 'trades']);
    expect(slow.take()).toEqual([]);
    expect(hub.stats()).toMatchObject({ skippedPushes: 2, resyncs: 0, closedSlow: 0 });

    clock.t += STALL_CLOSE_MS / 2;
    market.update([['101', '2']], []);
    await tick();
    expect(slow.take()).toEqual([]);
    expect(fast.take()).toEqual([expect.objectContaining({ kind: 'delta', prevSeq: 1, seq: 2 })]);
    expect(hub.stats().skippedPushes).toBe(3);

    // Drained: the next update brings it the whole book as a snapshot; deltas follow from its seq.
    slow.bufferedAmount = 0;
    clock.t += 1;
    market.update([['102', '3']], []);
    await tick();
    const [resync] = slow.take();
    expect(resync).toMatchObject({
      channel: 'depth',
      kind: 'snapshot',
      seq: 3,
      data: {
        bids: [
          ['100', '1'],
          ['101', '2'],
          ['102', '3'],
        ],
        asks: [],
      },
    });
    expect(fast.take()).toEqual([expect.objectContaining({ kind: 'delta', prevSeq: 2, seq: 3 })]);
    market.update([['100', '0']], []);
    await tick();
    expect(slow.take()).toEqual([expect.objectContaining({ kind: 'delta', prevSeq: 3, seq: 4, data: { bids: [['100', '0']], asks: [] } })]);
    expect(hub.stats()).toMatchObject({ resyncs: 1, closedSlow: 0 });

    // Slow again, and still slow STALL_CLOSE_MS later: closed as a slow consumer; the fast socket is untouched.
    slow.bufferedAmount = SLOW_BUFFERED_BYTES + 1;
    market.update([['103', '1']], []);
    await tick();
    clock.t += STALL_CLOSE_MS;
    market.update([['104', '1']], []);
    await tick();
    expect(slow.closedWith).toEqual({ code: CLOSE_SLOW_CONSUMER, reason: 'slow consumer' });
    expect(fast.closedWith).toBeNull();
    expect(hub.stats()).toMatchObject({ sockets: 1, closedSlow: 1, subscribers: { depth: 1, trades: 1 } });
    hub.close();
  });
});

describe('depth stream (property)', () => {
  it('a subscriber rebuilds the current book from its snapshot and deltas, however updates fall into flushes and whenever it was slow', async () => {
    const level = fc.tuple(fc.constantFrom('97', '98', '99', '100', '101'), fc.constantFrom('0', '1', '2', '3'));
    const step = fc.record({
      bids: fc.array(level, { maxLength: 3 }),
      asks: fc.array(level, { maxLength: 3 }),
      flush: fc.boolean(),
      slow: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), fc.nat({ max: 5 }), async (steps, joinAt) => {
        const clock = { t: 0 };
        const { hub, market, open } = makeHub(clock);
        let s: FakeSocket | null = null;
        const mine = new Map<string, string>();
        let seq = -1;
        const apply = () => {
          for (const m of s?.take() ?? []) {
            if (m.channel !== 'depth') continue;
            if (m.kind === 'snapshot') mine.clear();
            else expect(m.prevSeq).toBe(seq);
            seq = m.seq as number;
            const data = m.data as { bids: string[][]; asks: string[][] };
            for (const [side, rows] of [
              ['B', data.bids],
              ['A', data.asks],
            ] as const) {
              for (const [p, q] of rows) {
                if (q === '0') mine.delete(`${side}|${p}`);
                else mine.set(`${side}|${p}`, q as string);
              }
            }
          }
        };
        for (let i = 0; i < steps.length; i++) {
          const st = steps[i]!;
          if (i === joinAt) {
            s = open();
            s.subscribe('depth');
          }
          if (s) s.bufferedAmount = st.slow ? SLOW_BUFFERED_BYTES + 1 : 0;
          market.update(st.bids, st.asks);
          if (st.flush || i === steps.length - 1) {
            await tick();
            apply();
          }
        }
        if (s) {
          // Drained at last: one more update brings it up to date.
          s.bufferedAmount = 0;
          market.update([], []);
          await tick();
          apply();
          expect(new Map([...mine].sort())).toEqual(new Map([...market.book].sort()));
        }
        hub.close();
      }),
      { numRuns: 150 },
    );
  });
});
