/**
 * The fan-out core over fake sockets and a clock passed in: the topic registry (joined once, left, forgotten with its
 * last subscriber, cleaned up when a connection closes), the user sinks, the per-connection limits (topics, the
 * message rate, with and without counting), backpressure (a send over the limit closes 1013 and counts; a batched
 * round skips a slow connection and closes it once it stayed slow), the heartbeat and the shutdown.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type WebSocket from 'ws';
import {
  CLOSE_GOING_AWAY,
  CLOSE_POLICY_VIOLATION,
  CLOSE_SLOW_CONSUMER,
  createFanout,
  type FanoutConn,
  type FanoutOptions,
  type FanoutSink,
  type FanoutTopic,
} from './fanout';

/** A socket as the core sees it: what is sent is kept, bufferedAmount is set by the test. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  closedWith: { code: number; reason: string } | null = null;
  terminated = false;
  pings = 0;
  send(data: string | Buffer): void {
    this.sent.push(data.toString());
  }
  close(code: number, reason: string): void {
    this.closedWith ??= { code, reason };
    this.readyState = 2;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
  ping(): void {
    this.pings++;
  }
  /** A text message from the client. */
  message(text: string): void {
    this.emit('message', Buffer.from(text), false);
  }
}

interface Conn extends FanoutConn<Topic, Sink> {
  name: string;
}
interface Topic extends FanoutTopic<Conn> {
  made: number;
}
type Sink = FanoutSink<Conn>;

const log = { warn: () => {} };

function setup(over: Partial<FanoutOptions<Conn, Topic>> = {}) {
  const clock = { t: 1000 };
  const emptied: string[] = [];
  const dropped: string[] = [];
  const overRate: string[] = [];
  let made = 0;
  const fanout = createFanout<Conn, Topic, Sink>({
    maxBufferedBytes: 1000,
    messagesPerSec: 0,
    messageBurst: 0,
    onOverRate: (c) => overRate.push(c.name),
    onTopicEmpty: (t) => emptied.push(t.key),
    onDrop: (c) => dropped.push(c.name),
    log,
    now: () => clock.t,
    ...over,
  });
  const texts: string[] = [];
  const open = (name: string, maxTopics = 10) => {
    const s = new FakeSocket();
    const c = fanout.open(s as unknown as WebSocket, { name }, maxTopics, {
      text: (c, text) => texts.push(`${c.name}:${text}`),
      binary: (c) => texts.push(`${c.name}:binary`),
    });
    return { s, c };
  };
  const join = (c: Conn, key: string) => fanout.join(c, key, () => ({ key, subs: new Map(), made: ++made }));
  return { fanout, clock, open, join, emptied, dropped, overRate, texts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('topic registry', () => {
  it('makes a topic once, joins each connection once, and forgets the topic with its last subscriber', () => {
    const { fanout, open, join, emptied } = setup();
    const a = open('a');
    const b = open('b');
    const t = join(a.c, 'depth|X');
    expect(typeof t).toBe('object');
    expect(join(a.c, 'depth|X')).toBe('joined');
    expect(join(b.c, 'depth|X')).toBe(t);
    join(b.c, 'trades|X');
    const topic = fanout.topic('depth|X') as Topic;
    expect(topic.made).toBe(1);
    expect([...topic.subs]).toEqual([
      [a.c, -1],
      [b.c, -1],
    ]);
    expect([...b.c.topics.keys()]).toEqual(['depth|X', 'trades|X']);
    expect(fanout.stats()).toMatchObject({ connections: 2, topics: 2 });

    fanout.leave(a.c, 'depth|X');
    fanout.leave(a.c, 'depth|X');
    expect([...topic.subs.keys()]).toEqual([b.c]);
    expect(emptied).toEqual([]);
    fanout.leave(b.c, 'depth|X');
    expect(emptied).toEqual(['depth|X']);
    expect(fanout.topic('depth|X')).toBeUndefined();
    expect([...fanout.topics()].map((x) => x.key)).toEqual(['trades|X']);
    // A new subscriber makes a new topic.
    expect((join(a.c, 'depth|X') as Topic).made).toBe(3);
  });

  it('a closed socket leaves its topics and sinks once, and the hub hears of it', () => {
    const { fanout, open, join, emptied, dropped } = setup();
    const a = open('a');
    const b = open('b');
    join(a.c, 'k1');
    join(a.c, 'k2');
    join(b.c, 'k2');
    fanout.bind({ conn: a.c, userId: 'u1' });
    fanout.bind({ conn: b.c, userId: 'u1' });
    a.s.emit('close');
    a.s.emit('error');
    expect(a.c.closed).toBe(true);
    expect(dropped).toEqual(['a']);
    expect(emptied).toEqual(['k1']);
    expect(a.c.topics.size).toBe(0);
    expect(a.c.sinks.size).toBe(0);
    expect([...(fanout.sinksOf('u1') ?? [])].map((s) => s.conn.name)).toEqual(['b']);
    expect(fanout.stats()).toMatchObject({ connections: 1, topics: 1, sinks: 1 });
    // Nothing more is sent to it.
    fanout.send(a.c, 'x');
    expect(a.s.sent).toEqual([]);
  });
});

describe('user sinks', () => {
  it('binds sinks per user in order and forgets a user with its last sink', () => {
    const { fanout, open } = setup();
    const a = open('a');
    const b = open('b');
    expect(fanout.anySink()).toBe(false);
    const s1: Sink = { conn: a.c, userId: 'u1' };
    const s2: Sink = { conn: b.c, userId: 'u1' };
    const s3: Sink = { conn: a.c, userId: 'u2' };
    for (const s of [s1, s2, s3]) fanout.bind(s);
    expect([...(fanout.sinksOf('u1') ?? [])]).toEqual([s1, s2]);
    expect([...a.c.sinks]).toEqual([s1, s3]);
    expect(fanout.stats().sinks).toBe(3);
    fanout.unbind(s1);
    fanout.unbind(s1);
    fanout.unbind(s2);
    expect(fanout.sinksOf('u1')).toBeUndefined();
    expect([...a.c.sinks]).toEqual([s3]);
    expect(fanout.anySink()).toBe(true);
    fanout.unbind(s3);
    expect(fanout.anySink()).toBe(false);
    expect(fanout.stats().sinks).toBe(0);
  });
});

describe('limits', () => {
  it('refuses a topic beyond the connection limit, changing nothing', () => {
    const { fanout, open, join } = setup();
    const a = open('a', 2);
    join(a.c, 'k1');
    join(a.c, 'k2');
    expect(join(a.c, 'k3')).toBe('full');
    expect(join(a.c, 'k1')).toBe('joined');
    expect([...a.c.topics.keys()]).toEqual(['k1', 'k2']);
    expect(fanout.topic('k3')).toBeUndefined();
  });

  it('hands the burst of messages to the hub, then calls onOverRate for each message over it; the bucket refills with time', () => {
    const { open, clock, overRate, texts } = setup({ messagesPerSec: 2, messageBurst: 3 });
    const a = open('a');
    for (let i = 0; i < 5; i++) a.s.message(`m${i}`);
    expect(texts).toEqual(['a:m0', 'a:m1', 'a:m2']);
    expect(overRate).toEqual(['a', 'a']);
    clock.t += 500; // one token back at 2 per second
    a.s.message('m5');
    a.s.message('m6');
    a.s.emit('message', Buffer.from([1]), true);
    expect(texts).toEqual(['a:m0', 'a:m1', 'a:m2', 'a:m5']);
    expect(overRate).toEqual(['a', 'a', 'a', 'a']);
  });

  it('does not count the messages of an unrated connection, answers binary ones through the hub, and ignores a closed one', () => {
    const { fanout, overRate } = setup({ messagesPerSec: 1, messageBurst: 1 });
    const got: string[] = [];
    const s = new FakeSocket();
    const c = fanout.open(s as unknown as WebSocket, { name: 'api' }, 0, {
      rated: false,
      text: (_c, text) => got.push(text),
      binary: () => got.push('binary'),
    });
    s.message('a');
    s.message('b');
    s.emit('message', [Buffer.from('c'), Buffer.from('d')], false);
    s.emit('message', Buffer.from([0]), true);
    expect(got).toEqual(['a', 'b', 'cd', 'binary']);
    expect(overRate).toEqual([]);
    fanout.closeConn(c, 1000, 'bye');
    s.message('e');
    expect(got).toHaveLength(4);
  });
});

describe('backpressure', () => {
  it('sends while the backlog is within the limit; over it the connection is closed 1013 once and counted', () => {
    const { fanout, open } = setup();
    const a = open('a');
    const b = open('b');
    a.s.bufferedAmount = 1000;
    fanout.send(a.c, 'one');
    expect(a.s.sent).toEqual(['one']);
    a.s.bufferedAmount = 1001;
    expect(fanout.sendable(a.c)).toBe(false);
    fanout.send(a.c, 'two');
    expect(a.s.sent).toEqual(['one']);
    expect(a.s.closedWith).toEqual({ code: CLOSE_SLOW_CONSUMER, reason: 'slow consumer' });
    expect(a.c.closed).toBe(true);
    b.s.bufferedAmount = 40;
    expect(fanout.stats()).toEqual({ connections: 1, topics: 0, sinks: 0, bufferedBytes: 40, closedSlow: 1 });
  });

  it('a batched round skips a connection over slowBytes (one decision per round) and closes it once it stayed slow stallCloseMs', () => {
    const { fanout, open, clock } = setup({ slowBytes: 100, stallCloseMs: 5000 });
    const a = open('a');
    expect(fanout.flushable(a.c, 1, clock.t)).toBe(true);
    a.s.bufferedAmount = 101;
    expect(fanout.flushable(a.c, 1, clock.t)).toBe(true); // decided for round 1 already
    expect(fanout.flushable(a.c, 2, clock.t)).toBe(false);
    expect(a.c.backlog.slowSince).toBe(1000);
    // Drained: writable again, and the slow episode is over.
    a.s.bufferedAmount = 0;
    clock.t += 4000;
    expect(fanout.flushable(a.c, 3, clock.t)).toBe(true);
    expect(a.c.backlog.slowSince).toBe(0);
    // Slow again: skipped, then closed 5 s after this episode began.
    a.s.bufferedAmount = 101;
    expect(fanout.flushable(a.c, 4, clock.t)).toBe(false);
    clock.t += 4999;
    expect(fanout.flushable(a.c, 5, clock.t)).toBe(false);
    expect(a.c.closed).toBe(false);
    clock.t += 1;
    expect(fanout.flushable(a.c, 6, clock.t)).toBe(false);
    expect(a.s.closedWith).toEqual({ code: CLOSE_SLOW_CONSUMER, reason: 'slow consumer' });
    expect(fanout.stats()).toMatchObject({ connections: 0, closedSlow: 1 });
    expect(fanout.flushable(a.c, 7, clock.t)).toBe(false);
  });
});

describe('heartbeat', () => {
  it('pings every interval, closes 1008 a connection without a pong within the timeout, and counts ping/pong frames against the rate', () => {
    vi.useFakeTimers();
    const clock = { t: 0 };
    const overRate: string[] = [];
    const fanout = createFanout<Conn, Topic, Sink>({
      maxBufferedBytes: 1000,
      messagesPerSec: 1,
      messageBurst: 2,
      onOverRate: (c) => overRate.push(c.name),
      heartbeat: { pingEveryMs: 20_000, pongTimeoutMs: 60_000 },
      log,
      now: () => clock.t,
    });
    const quiet = new FakeSocket();
    const alive = new FakeSocket();
    const q = fanout.open(quiet as unknown as WebSocket, { name: 'quiet' }, 1);
    fanout.open(alive as unknown as WebSocket, { name: 'alive' }, 1);
    for (let i = 1; i <= 3; i++) {
      clock.t = i * 20_000;
      alive.emit('pong');
      vi.advanceTimersByTime(20_000);
    }
    expect(quiet.pings).toBe(3);
    expect(alive.pings).toBe(3);
    clock.t = 80_000;
    vi.advanceTimersByTime(20_000);
    expect(quiet.closedWith).toEqual({ code: CLOSE_POLICY_VIOLATION, reason: 'pong timeout' });
    expect(quiet.terminated).toBe(true);
    expect(q.closed).toBe(true);
    expect(alive.closedWith).toBeNull();
    expect(alive.pings).toBe(4);
    expect(overRate).toEqual([]);
    // A burst of ping frames goes over the rate.
    for (let i = 0; i < 3; i++) alive.emit('ping');
    expect(overRate).toEqual(['alive']);
    fanout.close();
  });
});

describe('shutdown', () => {
  it('closes every connection 1001 and stops the heartbeat', () => {
    vi.useFakeTimers();
    const { fanout, open } = setup({ heartbeat: { pingEveryMs: 1000, pongTimeoutMs: 60_000 } });
    const a = open('a');
    const b = open('b');
    fanout.close();
    for (const x of [a, b]) expect(x.s.closedWith).toEqual({ code: CLOSE_GOING_AWAY, reason: 'server shutting down' });
    expect(fanout.stats().connections).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(a.s.pings + b.s.pings).toBe(0);
  });
});
