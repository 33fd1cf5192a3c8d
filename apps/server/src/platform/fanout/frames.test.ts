/**
 * Pre-framed writes and the flusher over fake sockets: the frame lengths of RFC 6455, one write per connection (the
 * frames of connections with the same topics joined once), frames through `ws` when the socket compresses, a frame
 * sent outside a flush kept behind the queued ones, flushes at the end of the batch but at least minIntervalMs apart,
 * slices of WRITE_SLICE connections, and a follow-up flush when updates came in while writing.
 */
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { createFlusher, jsonFrame, textFrame, writeFrameInOrder, writeFrames, WRITE_SLICE, type FramedConn } from './frames';

/** A connection whose TCP writes (or, without a raw socket, ws sends) are kept. */
function conn(raw = true) {
  const writes: Buffer[] = [];
  const sends: string[] = [];
  let corked = 0;
  const c: FramedConn = {
    socket: { readyState: 1, send: (d: Buffer) => sends.push(d.toString()) } as unknown as WebSocket,
    closed: false,
    raw: raw
      ? ({
          write: (b: Buffer) => writes.push(b),
          cork: () => corked++,
          uncork: () => {},
        } as unknown as FramedConn['raw'])
      : null,
    out: [],
  };
  return { c, writes, sends, corked: () => corked };
}

/** The payloads of the text frames in `bufs`. */
function payloads(bufs: Buffer[]): string[] {
  const all = Buffer.concat(bufs);
  const out: string[] = [];
  for (let at = 0; at < all.length;) {
    let len = (all[at + 1] as number) & 0x7f;
    let head = 2;
    if (len === 126) {
      len = all.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      len = all.readUInt32BE(at + 2) * 2 ** 32 + all.readUInt32BE(at + 6);
      head = 10;
    }
    out.push(all.subarray(at + head, at + head + len).toString());
    at += head + len;
  }
  return out;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('frames', () => {
  it('heads a frame with FIN + text and the 7, 16 or 64-bit length', () => {
    expect([...textFrame(Buffer.from('hi'))]).toEqual([0x81, 2, 0x68, 0x69]);
    expect([...textFrame(Buffer.alloc(126)).subarray(0, 4)]).toEqual([0x81, 126, 0, 126]);
    expect([...textFrame(Buffer.alloc(65536)).subarray(0, 10)]).toEqual([0x81, 127, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(payloads([jsonFrame({ a: 1 })])).toEqual(['{"a":1}']);
  });

  it('writes several frames in one corked batch to the TCP socket, or each payload through ws when it compresses', () => {
    const tcp = conn();
    writeFrames(tcp.c, [jsonFrame(1), jsonFrame(2)]);
    expect(payloads(tcp.writes)).toEqual(['1', '2']);
    expect(tcp.corked()).toBe(1);
    const deflate = conn(false);
    writeFrames(deflate.c, [jsonFrame('x'.repeat(200)), jsonFrame(3)]);
    expect(deflate.sends).toEqual([JSON.stringify('x'.repeat(200)), '3']);
  });

  it('keeps a frame sent outside a flush behind the frames the flush still has to write', () => {
    const a = conn();
    writeFrameInOrder(a.c, jsonFrame('now'));
    expect(payloads(a.writes)).toEqual(['"now"']);
    a.c.out.push(jsonFrame('queued'));
    writeFrameInOrder(a.c, jsonFrame('later'));
    expect(a.writes).toHaveLength(1);
    expect(payloads(a.c.out)).toEqual(['"queued"', '"later"']);
  });
});

describe('flusher', () => {
  it('flushes once per batch, writes one joined buffer per connection (built once for equal frame lists), and counts', async () => {
    const [a, b, c] = [conn(), conn(), conn()];
    const f1 = jsonFrame('depth');
    const f2 = jsonFrame('trades');
    const rounds: number[] = [];
    let dirty = false;
    const flusher = createFlusher<FramedConn>(
      {
        collect(queue, round) {
          rounds.push(round);
          dirty = false;
          for (const x of [a, b]) {
            queue(x.c, f1);
            queue(x.c, f2);
          }
          queue(c.c, f2);
        },
        pending: () => dirty,
      },
      () => 0,
      0,
    );
    dirty = true;
    flusher.schedule();
    flusher.schedule();
    expect(rounds).toEqual([]);
    await turn();
    expect(rounds).toEqual([1]);
    expect(a.writes).toHaveLength(1);
    expect(a.writes[0]).toBe(b.writes[0]);
    expect(payloads(a.writes)).toEqual(['"depth"', '"trades"']);
    expect(payloads(c.writes)).toEqual(['"trades"']);
    expect(a.c.out).toEqual([]);
    expect(flusher.stats().flushes).toBe(1);
  });

  it('waits minIntervalMs after the previous flush, on one timer', async () => {
    const clock = { t: 1000 };
    let flushes = 0;
    const flusher = createFlusher<FramedConn>({ collect: () => void flushes++, pending: () => false }, () => clock.t, 30);
    flusher.schedule();
    await turn();
    expect(flushes).toBe(1);
    clock.t += 10;
    flusher.schedule();
    await turn();
    expect(flushes).toBe(1); // 20 ms to go
    await new Promise((r) => setTimeout(r, 40));
    expect(flushes).toBe(2);
    flusher.schedule();
    flusher.cancel();
    await new Promise((r) => setTimeout(r, 40));
    expect(flushes).toBe(2);
  });

  it('writes WRITE_SLICE connections per turn of the event loop, skips closed ones, then flushes what came in meanwhile', async () => {
    const conns = Array.from({ length: WRITE_SLICE + 2 }, () => conn());
    conns[1]!.c.closed = true;
    let dirty = true;
    let rounds = 0;
    const flusher = createFlusher<FramedConn>(
      {
        collect(queue) {
          rounds++;
          dirty = false;
          for (const x of conns) queue(x.c, jsonFrame(rounds));
        },
        pending: () => dirty,
      },
      () => 0,
      0,
    );
    flusher.schedule();
    await Promise.resolve();
    expect(rounds).toBe(1);
    expect(conns[0]!.writes).toHaveLength(1);
    expect(conns[1]!.writes).toHaveLength(0);
    expect(conns[WRITE_SLICE]!.writes).toHaveLength(0);
    // An update while writing: no flush until the write is done, then one.
    dirty = true;
    flusher.schedule();
    await turn();
    await turn();
    expect(rounds).toBe(2);
    expect(payloads(conns[WRITE_SLICE + 1]!.writes)).toEqual(['1', '2']);
    expect(conns[1]!.c.out).toEqual([]);
    expect(flusher.stats().flushes).toBe(2);
  });
});
