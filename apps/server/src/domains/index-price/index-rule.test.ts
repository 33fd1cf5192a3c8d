/**
 * The index rule (spec section 9, Binance's price index protections) on worked examples with exact values, and
 * against an independent model written from the rule with exact rational arithmetic (fractions of bigints, no
 * scaling tricks): fast-check draws quotes (prices of up to 8 decimals, volumes, ages, broken values) and configs,
 * and the rule must agree on the price, the staleness, its reason and every input's status.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDecimal } from '@exchange/money';
import { applyIndexRule, type IndexRuleConfig, type SourceQuote } from './index-rule';

const NOW = 1_723_161_600_000;
const cfg = (over: Partial<IndexRuleConfig> = {}): IndexRuleConfig => ({ priceDecimals: 2, maxAgeMs: 10_000, jumpBps: 2500, minSources: 3, ...over });
const q = (source: string, price: string, volume24h = '1000', ageMs = 0): SourceQuote => ({ source, price, volume24h, ts: NOW - ageMs });

describe('applyIndexRule: worked examples', () => {
  it('weights by 24 h volume inside the band', () => {
    // median 100; (100*1 + 101*1 + 99*2) / 4 = 399/4 = 99.75
    const r = applyIndexRule([q('binance', '100', '1'), q('okx', '101', '1'), q('bybit', '99', '2')], NOW, cfg());
    expect(r).toMatchObject({ price: '99.75', stale: false, reason: null, median: '100', used: 3 });
    expect(r.inputs.map((i) => i.status)).toEqual(['used', 'used', 'used']);
  });
  it('clamps a source spiking 20% to the median +3%', () => {
    // median 60000, band [58200, 61800]; (4*60000 + 61800) / 5 = 60360 (62400 without the clamp)
    const quotes = ['binance', 'okx', 'bybit', 'kraken'].map((s) => q(s, '60000.00')).concat(q('mexc', '72000.00'));
    const r = applyIndexRule(quotes, NOW, cfg());
    expect(r.price).toBe('60360.00');
    expect(r.inputs[4]).toMatchObject({ source: 'mexc', status: 'clamped', usedPrice: '61800' });
  });
  it('drops a source that jumped further than jumpBps', () => {
    const quotes = ['binance', 'okx', 'bybit', 'kraken'].map((s) => q(s, '60000.00')).concat(q('mexc', '78000.01'));
    const r = applyIndexRule(quotes, NOW, cfg());
    expect(r).toMatchObject({ price: '60000.00', used: 4 });
    expect(r.inputs[4]).toMatchObject({ status: 'jump', usedPrice: null });
    // exactly 30% away is not beyond 3000 bps: clamped, not dropped
    expect(applyIndexRule(quotes.slice(0, 4).concat(q('mexc', '78000')), NOW, cfg({ jumpBps: 3000 })).inputs[4]?.status).toBe('clamped');
  });
  it('drops stale sources and marks the index stale under minSources', () => {
    const r = applyIndexRule([q('binance', '100', '1'), q('okx', '102', '1', 10_001), q('bybit', '101', '1', 10_000)], NOW, cfg());
    expect(r).toMatchObject({ price: '100.50', stale: true, reason: 'too_few_sources', used: 2, median: '100.5' });
    expect(r.inputs.map((i) => [i.status, i.ageMs])).toEqual([
      ['used', 0],
      ['stale', 10_001],
      ['used', 10_000],
    ]);
  });
  it('rounds half up once, at the end', () => {
    expect(applyIndexRule([q('a', '100.00'), q('b', '100.01')], NOW, cfg({ minSources: 2 })).price).toBe('100.01');
    expect(applyIndexRule([q('a', '100.00', '3'), q('b', '100.01', '1')], NOW, cfg({ minSources: 2 })).price).toBe('100.00');
  });
  it('ignores broken quotes and answers no_sources with nothing left', () => {
    const r = applyIndexRule([q('a', 'abc'), q('b', '0'), q('c', '100', '-1'), q('d', '1e3'), q('e', '100', '0')], NOW, cfg());
    expect(r).toMatchObject({ price: null, stale: true, reason: 'no_sources', median: null, used: 0 });
    expect(r.inputs.every((i) => i.status === 'invalid')).toBe(true);
    expect(applyIndexRule([], NOW, cfg())).toMatchObject({ price: null, reason: 'no_sources' });
  });
  it('refuses a bad config', () => {
    expect(() => applyIndexRule([], NOW, cfg({ clampBps: -1 }))).toThrow(RangeError);
    expect(() => applyIndexRule([], NOW, cfg({ priceDecimals: 19 }))).toThrow(RangeError);
  });
});

// ---- the independent model: exact fractions ----
type Frac = { n: bigint; d: bigint };
const frac = (n: bigint, d = 1n): Frac => (d < 0n ? { n: -n, d: -d } : { n, d });
const add = (a: Frac, b: Frac) => frac(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Frac, b: Frac) => frac(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Frac, b: Frac) => frac(a.n * b.n, a.d * b.d);
const cmp = (a: Frac, b: Frac) => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};
function parseFrac(s: string): Frac | null {
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(s);
  if (!m) return null;
  const f = m[2] ?? '';
  return frac(BigInt((m[1] as string) + f), 10n ** BigInt(f.length));
}
function model(quotes: SourceQuote[], now: number, c: IndexRuleConfig) {
  const clamp = frac(BigInt(c.clampBps ?? 300), 10_000n);
  const jump = frac(BigInt(c.jumpBps), 10_000n);
  const rows = quotes.map((x) => {
    const p = parseFrac(x.price);
    const w = parseFrac(x.volume24h);
    let status = 'used';
    if (!p || !w || p.n === 0n || w.n === 0n) status = 'invalid';
    else if (Math.abs(now - x.ts) > c.maxAgeMs) status = 'stale';
    return { p, w, status };
  });
  const fresh = rows.filter((r) => r.status === 'used');
  const ps = fresh.map((r) => r.p as Frac).sort(cmp);
  if (ps.length === 0) return { price: null, stale: true, reason: 'no_sources', statuses: rows.map((r) => r.status) };
  const k = Math.floor(ps.length / 2);
  const m = ps.length % 2 ? (ps[k] as Frac) : mul(add(ps[k - 1] as Frac, ps[k] as Frac), frac(1n, 2n));
  const lo = mul(m, sub(frac(1n), clamp));
  const hi = mul(m, add(frac(1n), clamp));
  let num = frac(0n);
  let den = frac(0n);
  for (const r of fresh) {
    const p = r.p as Frac;
    const dev = cmp(p, m) >= 0 ? sub(p, m) : sub(m, p);
    if (cmp(dev, mul(m, jump)) > 0) {
      r.status = 'jump';
      continue;
    }
    const v = cmp(p, lo) < 0 ? lo : cmp(p, hi) > 0 ? hi : p;
    if (cmp(v, p) !== 0) r.status = 'clamped';
    num = add(num, mul(v, r.w as Frac));
    den = add(den, r.w as Frac);
  }
  const used = rows.filter((r) => r.status === 'used' || r.status === 'clamped').length;
  if (used === 0) return { price: null, stale: true, reason: 'no_sources', statuses: rows.map((r) => r.status) };
  // avg * 10^pd rounded half up: floor(avg * 10^pd + 1/2)
  const scaled = add(mul(frac(num.n * den.d, num.d * den.n), frac(10n ** BigInt(c.priceDecimals))), frac(1n, 2n));
  const units = scaled.n / scaled.d;
  const price = formatDecimal(units, c.priceDecimals);
  const stale = used < c.minSources;
  return { price, stale, reason: stale ? 'too_few_sources' : null, statuses: rows.map((r) => r.status) };
}

const decimalArb = (maxInt: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxInt }), fc.integer({ min: 0, max: 8 }), fc.bigInt({ min: 0n, max: 99_999_999n }))
    .map(([i, d, f]) => (d === 0 ? String(i) : `${i}.${f.toString().padStart(8, '0').slice(0, d)}`));
const quoteArb = fc.record({
  source: fc.constantFrom('binance', 'okx', 'bybit', 'coinbase', 'kraken', 'kucoin', 'gateio', 'bitget', 'mexc', 'htx'),
  // prices near one level (so clamps and jumps both happen), sometimes anywhere, sometimes broken
  price: fc.oneof(
    fc.integer({ min: 8_000, max: 12_000 }).chain((c) => fc.integer({ min: 0, max: 99 }).map((f) => `${c}.${String(f).padStart(2, '0')}`)),
    decimalArb(20_000),
    fc.constantFrom('0', 'x', '-5', ''),
  ),
  volume24h: fc.oneof(decimalArb(1_000_000), fc.constantFrom('0', '1e5')),
  ageMs: fc.integer({ min: -12_000, max: 15_000 }),
});
const configArb = fc.record({
  priceDecimals: fc.integer({ min: 0, max: 8 }),
  maxAgeMs: fc.integer({ min: 0, max: 12_000 }),
  jumpBps: fc.integer({ min: 0, max: 5000 }),
  clampBps: fc.integer({ min: 0, max: 2000 }),
  minSources: fc.integer({ min: 1, max: 6 }),
});

describe('applyIndexRule against the exact rational model', () => {
  it('agrees on price, staleness, reason and every status', () => {
    fc.assert(
      fc.property(fc.array(quoteArb, { maxLength: 12 }), configArb, (qs, c) => {
        const quotes = qs.map((x) => ({ source: x.source, price: x.price, volume24h: x.volume24h, ts: NOW - x.ageMs }));
        const got = applyIndexRule(quotes, NOW, c);
        const want = model(quotes, NOW, c);
        expect({ price: got.price, stale: got.stale, reason: got.reason, statuses: got.inputs.map((i) => i.status) }).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });
  it('a spike of any size enters at most at the median +3%', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 9_900, max: 10_100 }), { minLength: 3, maxLength: 9 }), fc.integer({ min: 1, max: 100 }), (levels, spike) => {
        const quotes = levels.map((p, i) => q(`s${i}`, String(p), '1'));
        const base = applyIndexRule(quotes, NOW, cfg({ priceDecimals: 4, minSources: 1 }));
        const spiked = applyIndexRule(
          [...quotes, q('spike', String(10_000 * (100 + spike)), '1')],
          NOW,
          cfg({ priceDecimals: 4, minSources: 1, jumpBps: 1_000_000 }),
        );
        // the spike source enters at most at median * 1.03 <= 10100 * 1.03 = 10403
        expect(BigInt((spiked.price as string).replace('.', ''))).toBeLessThanOrEqual(10_403_0000n);
        expect(base.stale).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
