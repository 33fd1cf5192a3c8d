/**
 * A client process of the WebSocket fan-out benchmark (ws-fanout.ts): opens `argv[3]` sockets to `argv[2]` (at most
 * 100 handshakes in flight), each subscribing to BTC/USDT depth and trades, and reports `connected` once every socket
 * has its depth snapshot. Then it notes, for every depth delta and trades message, the receipt time (monotonic clock,
 * common.ts) and the oldest engine event the message carries: the depth delta's first seq (prevSeq + 1), the trades
 * message's oldest trade id (the list is newest first). On `stamps` from the parent it turns these into latencies
 * against the server's stamps (events outside the measured window are left out) and answers with a histogram.
 *
 * The work per message is kept small (no JSON.parse: the numbers are read from the frame's bytes), since these
 * processes share the machine's cores with the server they measure.
 */
import WebSocket from 'ws';
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

function open(): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { skipUTF8Validation: true, perMessageDeflate: false });
    let lastSeq = -1;
    let ready = false;
    ws.on('message', (data: Buffer) => {
      const t = monoMs();
      if (stopped) return;
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
    });
    ws.on('open', () => {
      ws.send('{"op":"subscribe","channel":"depth","pairsName":"BTC/USDT"}');
      ws.send('{"op":"subscribe","channel":"trades","pairsName":"BTC/USDT"}');
    });
    ws.on('error', () => {
      if (!ready) resolve(false);
    });
    ws.on('close', (code) => {
      if (!ready) resolve(false);
      else if (!stopped) closed[String(code)] = (closed[String(code)] ?? 0) + 1;
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
