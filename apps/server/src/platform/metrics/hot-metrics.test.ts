/**
 * Proves that HotHistogram and HotCounter expose exactly what prom-client's Histogram and Counter expose for the
 * same observations (prom-client is the independent model): fast-check draws observations over a few label sets,
 * both are fed in the same order, and the sample lines of the two registries are equal.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-metrics';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const ROUTES = ['/api/a', '/api/b', '/metrics'];
const CLASSES = ['2xx', '4xx', '5xx'];

/** The sample lines of a registry's text, sorted. */
async function lines(reg: Registry): Promise<string[]> {
  const text = await reg.metrics();
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .sort();
}

describe('hot metrics', () => {
  it('expose the same text as prom-client for the same observations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ route: fc.constantFrom(...ROUTES), cls: fc.constantFrom(...CLASSES), value: fc.double({ min: 0, max: 5, noNaN: true }) }), {
          maxLength: 60,
        }),
        async (obs) => {
          const model = new Registry();
          const promH = new Histogram({ name: 'model_seconds', help: 'h', labelNames: ['route', 'status'], buckets: BUCKETS, registers: [model] });
          const promC = new Counter({ name: 'model_total', help: 'c', labelNames: ['route', 'status'], registers: [model] });
          const ours = new Registry();
          const hotH = new HotHistogram('model_seconds', 'h', BUCKETS);
          const hotC = new HotCounter('model_total', 'c');
          ours.registerMetric(hotH as never);
          ours.registerMetric(hotC as never);
          for (const o of obs) {
            promH.observe({ route: o.route, status: o.cls }, o.value);
            promC.inc({ route: o.route, status: o.cls });
            hotH.observe(`${o.cls} ${o.route}`, () => ({ route: o.route, status: o.cls }), o.value);
            hotC.inc(`${o.cls} ${o.route}`, () => ({ route: o.route, status: o.cls }));
          }
          expect(await lines(ours)).toEqual(await lines(model));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('counts a value on a bucket bound into that bucket (le is inclusive)', async () => {
    const h = new HotHistogram('h', 'h', [1, 2]);
    h.observe('k', () => ({}), 1);
    h.observe('k', () => ({}), 2.5);
    const v = h.get().values.map((x) => [x.metricName, x.labels.le ?? '', x.value]);
    expect(v).toEqual([
      ['h_bucket', 1, 1],
      ['h_bucket', 2, 1],
      ['h_bucket', '+Inf', 2],
      ['h_sum', '', 3.5],
      ['h_count', '', 2],
    ]);
  });
});
