/**
 * Batched pushes written as pre-framed bytes (used by the app's hub, gateways/ws/ws.hub.ts, built for 10,000
 * subscribers of one topic): a message is serialized and framed once per topic and flush, and the same bytes are
 * written to every subscriber's TCP socket, several frames of one socket in one write.
 *
 * The flusher runs a hub's flush at the end of the engine batch that made the updates (a microtask) but never sooner
 * than `minIntervalMs` after the previous one (one timer for the hub, none per socket), and writes the queued frames
 * in slices of WRITE_SLICE sockets, the event loop running between two slices.
 */
import type { Socket } from 'node:net';
import type WebSocket from 'ws';

/** Sockets written between two turns of the event loop by a flush. */
export const WRITE_SLICE = 1000;

/** A connection that takes pre-framed writes. */
export interface FramedConn {
  readonly socket: WebSocket;
  closed: boolean;
  /** The TCP socket the frames are written to; null when an extension (compression) is on: then through `ws`. */
  readonly raw: Socket | null;
  /** Frames queued for this connection by the running flush. */
  readonly out: Buffer[];
}

/**
 * One unfragmented, unmasked WebSocket text frame holding `payload` (RFC 6455 section 5.2: FIN + opcode 1, then the
 * payload length in 7 bits, or 126 + 16 bits, or 127 + 64 bits), as a server sends it.
 */
export function textFrame(payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + n);
  frame[0] = 0x81;
  if (n < 126) frame[1] = n;
  else if (n < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(n, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    frame.writeUInt32BE(n >>> 0, 6);
  }
  payload.copy(frame, head);
  return frame;
}

/** The JSON of `msg` as one text frame. */
export const jsonFrame = (msg: unknown): Buffer => textFrame(Buffer.from(JSON.stringify(msg), 'utf8'));

/** The TCP socket pre-framed bytes may go to: the socket's own, unless an extension (permessage-deflate) transforms frames. */
export function rawSocketOf(socket: WebSocket): Socket | null {
  const tcp = (socket as unknown as { _socket?: Socket })._socket;
  return socket.extensions === '' && tcp !== undefined ? tcp : null;
}

/** Writes pre-framed messages to `c`: straight to its TCP socket in one write, or through ws when it compresses. */
export function writeFrames(c: FramedConn, frames: Buffer[]): void {
  const raw = c.raw;
  if (raw === null) {
    for (const f of frames) c.socket.send(f.subarray(f[1] === 127 ? 10 : f[1] === 126 ? 4 : 2), { binary: false });
    return;
  }
  if (frames.length === 1) {
    raw.write(frames[0] as Buffer);
    return;
  }
  raw.cork();
  for (const f of frames) raw.write(f);
  raw.uncork();
}

/** Writes `frame` to `c` now, behind the frames a running flush still has to write to it, if any (so it comes after them). */
export function writeFrameInOrder(c: FramedConn, frame: Buffer): void {
  if (c.out.length > 0) c.out.push(frame);
  else writeFrames(c, [frame]);
}

/** The hub's part of a flush. */
export interface FlushSource<C extends FramedConn> {
  /**
   * Queues this flush's frames: `queue(c, frame)` for each frame to each connection, in order. `round` numbers the
   * flushes from 1, `at` is the clock (ms) of this one.
   */
  collect(queue: (c: C, frame: Buffer) => void, round: number, at: number): void;
  /** Whether updates came in since the last collect (then another flush follows the write). */
  pending(): boolean;
}

/** The flusher's counts. */
export interface FlushStats {
  /** Flushes since start. */
  flushes: number;
  /** Duration of the last flush (collect + write to every connection), in ms. */
  lastFlushMs: number;
}

/** Runs a hub's flushes. */
export interface Flusher {
  /** Makes sure a flush is coming (see the module comment); a no-op when one is scheduled or still writing. */
  schedule(): void;
  stats(): FlushStats;
  /** Cancels a scheduled flush (shutdown). */
  cancel(): void;
}

/** Creates the flusher of `source`: clock `now` (ms), at least `minIntervalMs` between two flushes (0: one per batch). */
export function createFlusher<C extends FramedConn>(source: FlushSource<C>, now: () => number, minIntervalMs: number): Flusher {
  let scheduled = false;
  /** True while a flush's slices are being written (the next flush waits for it). */
  let writing = false;
  let timer: NodeJS.Timeout | undefined;
  let lastFlushAt = -Infinity;
  let round = 0;
  let lastFlushMs = 0;

  function schedule(): void {
    if (scheduled || writing) return;
    scheduled = true;
    const wait = lastFlushAt + minIntervalMs - now();
    // A microtask runs once the engine batch being applied has published all its events.
    if (wait <= 0) queueMicrotask(flush);
    else timer = setTimeout(flush, wait);
  }

  function flush(): void {
    scheduled = false;
    timer = undefined;
    const at = now();
    lastFlushAt = at;
    round++;
    const t0 = performance.now();
    const targets: C[] = [];
    source.collect(
      (c, frame) => {
        if (c.out.length === 0) targets.push(c);
        c.out.push(frame);
      },
      round,
      at,
    );
    writing = true;
    writeSlice(targets, 0, t0);
  }

  /**
   * Writes the queued frames of targets[from..] in slices of WRITE_SLICE connections. A connection's frames queued by
   * a later flush before its turn go out with these, in order. Connections with the same topics get the same frames:
   * those are joined once, so each costs one write of one buffer (one send system call, the bulk of a flush's cost).
   */
  function writeSlice(targets: C[], from: number, t0: number): void {
    const ids = new Map<Buffer, number>();
    const joined = new Map<string, Buffer>();
    const end = Math.min(targets.length, from + WRITE_SLICE);
    for (let i = from; i < end; i++) {
      const c = targets[i] as C;
      const out = c.out;
      if (out.length === 0) continue;
      if (!c.closed && c.socket.readyState === 1) {
        if (out.length === 1 || c.raw === null) writeFrames(c, out);
        else {
          let key = '';
          for (const f of out) {
            let id = ids.get(f);
            if (id === undefined) ids.set(f, (id = ids.size));
            key += `${id},`;
          }
          let buf = joined.get(key);
          if (!buf) joined.set(key, (buf = Buffer.concat(out)));
          c.raw.write(buf);
        }
      }
      out.length = 0;
    }
    if (end < targets.length) {
      setImmediate(() => writeSlice(targets, end, t0));
      return;
    }
    lastFlushMs = performance.now() - t0;
    writing = false;
    if (source.pending()) schedule();
  }

  return {
    schedule,
    stats: () => ({ flushes: round, lastFlushMs }),
    cancel: () => clearTimeout(timer),
  };
}
