/**
 * Ports for the processes a benchmark starts. BENCH_PORTS=44150-44199 takes them from that range, in order (a machine
 * shared with other servers); without it, any free loopback port the OS hands out.
 */
import net from 'node:net';

const RANGE = /^([0-9]+)-([0-9]+)$/.exec(process.env.BENCH_PORTS ?? '');
let nextInRange = RANGE ? Number(RANGE[1]) : 0;

/** Binds 127.0.0.1:`p` (0 = any) and releases it; the port bound, or null when it was taken. */
function listen(p: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(null));
    s.listen(p, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a !== null ? a.port : null));
    });
  });
}

/** A free port on 127.0.0.1 (from BENCH_PORTS when set). Throws when the range is used up. */
export async function freePort(): Promise<number> {
  while (RANGE && nextInRange <= Number(RANGE[2])) {
    const p = await listen(nextInRange++);
    if (p !== null) return p;
  }
  if (RANGE) throw new Error(`no free port left in BENCH_PORTS ${process.env.BENCH_PORTS}`);
  const p = await listen(0);
  if (p === null) throw new Error('no free port');
  return p;
}
