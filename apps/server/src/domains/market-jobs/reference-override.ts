/**
 * The test-only control of the reference prices (a test moves the reference price; refused in
 * production): POST /api/demo/contract/setReferencePrice pins the reference price of a coin's USDT path to a
 * value; the index price job then takes that value as the index of the contract (exactly, without the spot book's
 * sources, so a test knows the index it set), the mark price job passes it to the engine every second, and the spot
 * liquidity bots quote around it too (the wrapped paths answer it). Bars (k-line history) are left as they were.
 *
 * One registry per application context (a WeakMap, so tests that build several apps in one process never share
 * one); the route and the jobs reach it with `referenceOverridesOf(ctx)`.
 */
import type { PriceBar, ReferencePath, ReferencePaths } from '../market-data/price-source';

/** Pinned reference prices by base coin (decimal strings in USDT), and the coins whose index sources are silenced. */
export class ReferenceOverrides {
  private readonly prices = new Map<string, string>();
  private readonly silent = new Set<string>();

  /**
   * Silences (or lets speak again) every index source of `base`'s USDT contract, as if they had all stopped: the
   * index job then publishes a stale index (no sources), the engine holds the mark and pauses the contract
   * (POST /api/demo/contract/silenceIndexSources, the test-only control of the pause).
   */
  silence(base: string, on: boolean): void {
    if (on) this.silent.add(base);
    else this.silent.delete(base);
  }

  /** True while `base`'s index sources are silenced. */
  silenced(base: string): boolean {
    return this.silent.has(base);
  }

  /** Pins the USDT reference price of `base` to `price` (a decimal string) from now on. */
  set(base: string, price: string): void {
    this.prices.set(base, price);
  }

  /** Releases the pin of `base`. */
  clear(base: string): void {
    this.prices.delete(base);
  }

  /** The pinned price of `base`, or undefined. */
  get(base: string): string | undefined {
    return this.prices.get(base);
  }

  /**
   * `paths` with every USDT path answering the pinned price of its coin while one is set (cross pairs and bars
   * unchanged).
   */
  wrap(paths: ReferencePaths): ReferencePaths {
    const wrapped = new Map<ReferencePath, ReferencePath>();
    const wrapPath = (p: ReferencePath | undefined): ReferencePath | undefined => {
      if (!p || p.quote !== 'USDT') return p;
      let w = wrapped.get(p);
      if (!w) {
        const pinned = (base: string) => this.get(base);
        w = {
          base: p.base,
          quote: p.quote,
          provenance: p.provenance,
          priceAt: (ts: number) => pinned(p.base) ?? p.priceAt(ts),
          bars: (periodMs: number, fromTs: number, toTs: number): PriceBar[] => p.bars(periodMs, fromTs, toTs),
        };
        wrapped.set(p, w);
      }
      return w;
    };
    const out: ReferencePaths = {
      get: (base) => wrapPath(paths.get(base)),
      all: () => paths.all().map((p) => wrapPath(p) as ReferencePath),
    };
    if (paths.pair) {
      const pair = paths.pair.bind(paths);
      out.pair = (base, quote) => wrapPath(pair(base, quote));
    }
    return out;
  }
}

const registries = new WeakMap<object, ReferenceOverrides>();

/** The registry of an application context (created on first use). */
export function referenceOverridesOf(ctx: object): ReferenceOverrides {
  let r = registries.get(ctx);
  if (!r) registries.set(ctx, (r = new ReferenceOverrides()));
  return r;
}
