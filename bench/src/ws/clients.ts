/**
 * A client process of the WebSocket fan-out benchmark (ws-fanout.ts): opens `argv[3]` sockets to `argv[2]` (at most
 * 100 handshakes in flight), each subscribing to BTC/USDT depth and trades, and reports `connected` once every socket
 * has its depth snapshot. Then it notes, for every depth delta and trades message, the receipt time (monotonic clock,
 * common.ts) and the oldest engine event the message carries: the depth delta's first seq (prevSeq + 1), the trades
 * message's oldest trade id (the list is newest first). On `stamps` from the parent it turns these into latencies
 * against the server's stamps (events outside the measured window are left out) and answers with a histogram.
 *
 * The work per message is kept small (a plain TCP client cutting frames, no JSON.parse: the numbers are read from the
 * frame's bytes), since these processes share the machine's cores with the server they measure.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { monoMs, newHistogram, record, type FromClients, type ToClients } from './common';

const url = process.argv[2] ?? '';
const count = Number.parseInt(process.argv[3] ?? '0', 10);
const CONCURRENCY = 100;

const DEPTH = Buffer.from('{"channel":"depth"');
const TRADES = Buffer.from('{"channel":"trades"');
const DELTA = Buffer.from('"kind":"delta"');
const SNAPSHOT = Buffer.from('"kind":"snapshot"');
const PREV_SEQ = Buffer.from('"prevSeq":');
const SEQ = Buffer.from('"seq":');
const ID = Buffer.from('"id":"');

/** The unsigned integer written at `at` in `b` (digits, optionally after a quote). */
function intAt(b: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < b.length; i++) {
    const c = b[i] as number;
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return n;
}

function startsWith(b: Buffer, p: Buffer): boolean {
  return b.length >= p.length && b.compare(p, 0, p.length, 0, p.length) === 0;
}

/** Growable receipt log: (key, time) pairs in typed arrays. */
class Log {
  keys = new Float64Array(1 << 16);
  times = new Float64Array(1 << 16);
  n = 0;
  add(key: number, t: number): void {
    if (this.n === this.keys.length) {
      const k = new Float64Array(this.n * 2);
      k.set(this.keys);
      this.keys = k;
      const ts = new Float64Array(this.n * 2);
      ts.set(this.times);
      this.times = ts;
    }
    this.keys[this.n] = key;
    this.times[this.n++] = t;
  }
}

const depthLog = new Log();
const tradeLog = new Log();
let gaps = 0;
let resyncs = 0;
const closed: Record<string, number> = {};
let stopped = false;

function send(m: FromClients): void {
  process.send?.(m);
}

/** A client text frame: masked as RFC 6455 requires of clients (with a zero key, so the payload reads as is). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length > 125) throw new Error('short messages only');
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

const SUBSCRIBE = Buffer.concat([
  clientFrame('{"op":"subscribe","channel":"depth","pairsName":"BTC/USDT"}'),
  clientFrame('{"op":"subscribe","channel":"trades","pairsName":"BTC/USDT"}'),
]);

/**
 * One subscriber over a plain TCP socket: the HTTP upgrade, then server frames cut from the byte stream (unmasked,
 * unfragmented text, as the hub sends them; a close frame ends it). Lighter than a full client library, so the
 * receive work these processes take from the shared cores stays small.
 */
function open(): Promise<boolean> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const sock = net.connect({ host: target.hostname, port: Number(target.port) });
    sock.setNoDelay(true);
    let lastSeq = -1;
    let ready = false;
    let upgraded = false;
    let buf: Buffer = Buffer.alloc(0);
    const onFrame = (data: Buffer, t: number) => {
      if (startsWith(data, DEPTH)) {
        if (data.indexOf(DELTA) >= 0) {
          const prev = intAt(data, data.indexOf(PREV_SEQ) + PREV_SEQ.length);
          if (prev !== lastSeq) gaps++;
          lastSeq = intAt(data, data.indexOf(SEQ) + SEQ.length);
          depthLog.add(prev + 1, t);
        } else if (data.indexOf(SNAPSHOT) >= 0) {
          lastSeq = intAt(data, data.indexOf(SEQ) + SEQ.length);
          if (ready) resyncs++;
          else {
            ready = true;
            resolve(true);
          }
        }
      } else if (startsWith(data, TRADES)) {
        const at = data.lastIndexOf(ID);
        if (at >= 0 && ready) tradeLog.add(intAt(data, at + ID.length), t);
      }
    };
    sock.on('connect', () => {
      sock.write(
        `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    sock.on('data', (chunk: Buffer) => {
      const t = monoMs();
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      if (!upgraded) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buf.subarray(0, 12).toString().includes('101')) {
          sock.destroy();
          return;
        }
        upgraded = true;
        buf = buf.subarray(end + 4);
        sock.write(SUBSCRIBE);
      }
      let at = 0;
      while (buf.length - at >= 2) {
        const op = (buf[at] as number) & 0x0f;
        let len = (buf[at + 1] as number) & 0x7f;
        let head = 2;
        if (len === 126) {
          if (buf.length - at < 4) break;
          len = buf.readUInt16BE(at + 2);
          head = 4;
        } else if (len === 127) {
          if (buf.length - at < 10) break;
          len = buf.readUInt32BE(at + 6);
          head = 10;
        }
        if (buf.length - at < head + len) break;
        if (op === 8) {
          const code = len >= 2 ? buf.readUInt16BE(at + head) : 1005;
          if (!stopped && ready) closed[String(code)] = (closed[String(code)] ?? 0) + 1;
          sock.destroy();
          return;
        }
        if (!stopped && op === 1) onFrame(buf.subarray(at + head, at + head + len), t);
        at += head + len;
      }
      buf = at === buf.length ? Buffer.alloc(0) : buf.subarray(at);
    });
    sock.on('error', () => {
      if (!ready) resolve(false);
    });
    sock.on('close', () => {
      if (!ready) resolve(false);
    });
  });
}

async function connectAll(): Promise<void> {
  const t0 = performance.now();
  let started = 0;
  let ok = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, count) }, async () => {
      while (started < count) {
        started++;
        if (await open()) ok++;
        else failed++;
      }
    }),
  );
  send({ type: 'connected', sockets: ok, failed, ms: performance.now() - t0 });
}

process.on('message', (m: ToClients) => {
  if (m.type !== 'stamps') return;
  stopped = true;
  const depth = new Map(m.depth);
  const trades = new Map(m.trades);
  const hist = newHistogram();
  let measured = 0;
  const measure = (log: Log, stamps: Map<number, number>) => {
    for (let i = 0; i < log.n; i++) {
      const s = stamps.get(log.keys[i] as number);
      if (s === undefined) continue;
      measured++;
      record(hist, (log.times[i] as number) - s);
    }
  };
  measure(depthLog, depth);
  measure(tradeLog, trades);
  send({ type: 'result', hist, received: depthLog.n + tradeLog.n, measured, gaps, resyncs, closed });
});

void connectAll();
