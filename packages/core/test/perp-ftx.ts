/**
 * Loader of the real BTC-PERP 1-minute path (../shared/data/ftx-btc-perp-1m-nautilus, see its PROVENANCE.md: FTX's
 * BTC-PERP as kept in nautechsystems/nautilus_trader's test data, LGPL-3.0). The licence is not MIT/Apache, so the
 * file is read in place and never copied into the repository; tests and benches skip when it is absent.
 * `FTX_PERP_CSV` may name another copy. Prices are parsed from the decimal strings exactly (no floating point) into
 * thousandths of a USD (the file has at most 3 decimals).
 */

// The core's tsconfig has no node types (the core does no I/O); this test helper loads node's modules itself.
interface NodeFs {
  existsSync(p: string): boolean;
  readFileSync(p: string): Uint8Array;
}
interface NodeZlib {
  gunzipSync(b: Uint8Array): { toString(enc: 'utf8'): string };
}
const nodeProcess = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process;
const fs = (await import('node:fs' as string)) as NodeFs;
const zlib = (await import('node:zlib' as string)) as NodeZlib;
/** /work/main (the repository root), from this file's URL */
const ROOT = decodeURIComponent((import.meta as unknown as { url: string }).url.replace(/^file:\/\//, '')).replace(/\/packages\/core\/test\/[^/]*$/, '');

/** One 1-minute bar; prices in 10^-3 USD. */
export interface Bar {
  /** bar open time, Unix ms (the file's times are UTC) */
  ts: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
}

const REL = 'ftx-btc-perp-1m-nautilus/btc-perp-20211231-20220201_1m.csv.gz';

/** The data file, or undefined when it is not on this machine. */
export function ftxFile(): string | undefined {
  const env = nodeProcess.env.FTX_PERP_CSV;
  const root = ROOT.replace(/\/[^/]*$/, ''); // the repository's parent
  const p = env ?? `${root}/shared/data/${REL}`;
  return fs.existsSync(p) ? p : undefined;
}

/** "46821.75" -> 46821750n (10^-3 USD); throws on more than 3 decimals or a malformed number. */
export function milliUsd(s: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,3}))?$/.exec(s.trim());
  if (m === null) throw new Error(`bad price ${s}`);
  return BigInt(m[1]!) * 1000n + BigInt(((m[2] ?? '') + '000').slice(0, 3));
}

/** Price units of a market with `decimals` (<= 3) decimals, rounded half up. */
export function toPriceUnits(milli: bigint, decimals: number): bigint {
  const d = 10n ** BigInt(3 - decimals);
  return (milli * 2n + d) / (2n * d);
}

/** Bars of the file (gzip CSV timestamp,open,high,low,close,volume), in file order; `limit` bars at most. */
export function loadFtxBars(file: string, limit = Infinity): Bar[] {
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
  const out: Bar[] = [];
  const lines = text.split('\n');
  for (let i = 1; i < lines.length && out.length < limit; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const [t, o, h, l, c] = line.split(',');
    const ts = Date.parse(`${t!.slice(0, 19).replace(' ', 'T')}Z`);
    if (!Number.isFinite(ts)) throw new Error(`bad time ${t}`);
    out.push({ ts, open: milliUsd(o!), high: milliUsd(h!), low: milliUsd(l!), close: milliUsd(c!) });
  }
  return out;
}
