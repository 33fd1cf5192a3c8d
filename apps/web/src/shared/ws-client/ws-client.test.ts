// Proves the WebSocket client's bookkeeping against a fake socket: subscribe/unsubscribe messages
// are reference-counted per channel key, reconnect re-subscribes, and depth deltas are sequenced
// (a gap triggers unsubscribe + subscribe and nothing is delivered until the next snapshot).
import { describe, expect, it, vi } from 'vitest';
import { WsClient, channelKey } from './ws-client';
import { applyDepth } from './depth-book';

class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send(s: string) {
    this.sent.push(JSON.parse(s));
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
}

function makeClient() {
  const client = new WsClient(
    () => 'ws://test/ws/websocket',
    () => new FakeSocket() as unknown as WebSocket,
  );
  return client;
}

const depth = { channel: 'depth', pairsName: 'BTC/USDT', type: 'SPOT' } as const;

describe('WsClient', () => {
  it('ref-counts subscriptions per channel key', () => {
    const c = makeClient();
    const a = c.subscribe(depth, () => {});
    const sock = FakeSocket.last!;
    sock.open();
    const b = c.subscribe(depth, () => {});
    expect(c.refCount(depth)).toBe(2);
    expect(sock.sent.filter((m) => (m as { op: string }).op === 'subscribe')).toHaveLength(1);
    a();
    expect(sock.sent.filter((m) => (m as { op: string }).op === 'unsubscribe')).toHaveLength(0);
    b();
    expect(sock.sent.at(-1)).toEqual({ op: 'unsubscribe', channel: 'depth', pairsName: 'BTC/USDT', type: 'SPOT' });
    expect(c.refCount(depth)).toBe(0);
    c.close();
  });

  it('re-subscribes after a reconnect', () => {
    vi.useFakeTimers();
    const c = makeClient();
    c.subscribe({ channel: 'kline', pairsName: 'ETH/USDT', type: 'SPOT', period: '5min' }, () => {});
    FakeSocket.last!.open();
    FakeSocket.last!.onclose?.();
    vi.advanceTimersByTime(1000);
    const second = FakeSocket.last!;
    second.open();
    expect(second.sent).toContainEqual({ op: 'subscribe', channel: 'kline', pairsName: 'ETH/USDT', type: 'SPOT', period: '5min' });
    c.close();
    vi.useRealTimers();
  });

  it('applies depth deltas in sequence and resyncs on a gap', () => {
    const c = makeClient();
    const got: unknown[] = [];
    c.subscribe(depth, (m) => got.push(m));
    const sock = FakeSocket.last!;
    sock.open();
    const base = { channel: 'depth', pairsName: 'BTC/USDT', type: 'SPOT' } as const;
    c.handle({
      ...base,
      kind: 'snapshot',
      seq: 10,
      prevSeq: 0,
      data: {
        bids: [
          ['100', '1'],
          ['101', '2'],
        ],
        asks: [['102', '1']],
      },
    });
    c.handle({
      ...base,
      kind: 'delta',
      seq: 11,
      prevSeq: 10,
      data: {
        bids: [
          ['101.0', '0'],
          ['99', '5'],
        ],
        asks: [],
      },
    });
    expect(got).toHaveLength(2);
    expect((got[1] as { data: unknown }).data).toEqual({
      bids: [
        ['100', '1'],
        ['99', '5'],
      ],
      asks: [['102', '1']],
    });
    sock.sent.length = 0;
    c.handle({ ...base, kind: 'delta', seq: 13, prevSeq: 12, data: { bids: [], asks: [['103', '1']] } });
    expect(got).toHaveLength(2);
    expect(sock.sent).toEqual([
      { op: 'unsubscribe', channel: 'depth', pairsName: 'BTC/USDT', type: 'SPOT' },
      { op: 'subscribe', channel: 'depth', pairsName: 'BTC/USDT', type: 'SPOT' },
    ]);
    // Deltas after the gap are ignored until a snapshot arrives.
    c.handle({ ...base, kind: 'delta', seq: 14, prevSeq: 13, data: { bids: [], asks: [] } });
    expect(got).toHaveLength(2);
    c.handle({ ...base, kind: 'snapshot', seq: 20, prevSeq: 0, data: { bids: [['98', '1']], asks: [] } });
    expect(got).toHaveLength(3);
    c.close();
  });

  it('names channel keys by channel, market type, pair and period', () => {
    expect(channelKey(depth)).toBe('depth:SPOT:BTC/USDT');
    expect(channelKey({ channel: 'kline', pairsName: 'BTC/USDT' })).toBe('kline:SPOT:BTC/USDT:1min');
    expect(channelKey({ channel: 'orders' })).toBe('orders');
  });

  it('sorts merged books best first', () => {
    const r = applyDepth(null, {
      kind: 'snapshot',
      seq: 1,
      prevSeq: 0,
      data: {
        bids: [
          ['9.5', '1'],
          ['10', '1'],
          ['9.75', '1'],
        ],
        asks: [
          ['11', '1'],
          ['10.5', '1'],
        ],
      },
    });
    expect(r.ok && r.state.bids.map((l) => l[0])).toEqual(['10', '9.75', '9.5']);
    expect(r.ok && r.state.asks.map((l) => l[0])).toEqual(['10.5', '11']);
  });
});
