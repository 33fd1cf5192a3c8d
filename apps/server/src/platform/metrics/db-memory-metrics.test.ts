/**
 * Proves the database worker's memory gauges (metrics.ts `watchDbMemory`, db-worker.ts `memory`) on a real PGlite in
 * its worker thread: the scrape reports the worker's V8 heap (in use at most what is reserved, and not the main
 * thread's heap: the worker is an isolate of its own) and PGlite's WebAssembly memory (whole 64 KiB pages, growing
 * when a query needs more); a stopped worker shows its last answer (as the disk gauges do: the server exits on a dead
 * worker anyway), and a process without a worker, or on PostgreSQL, shows no PGlite gauge rather than a zero.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type DbHandle } from '../db/client';
import { createMetrics } from './metrics';

/** The value of the unlabelled sample `name`, or undefined when the text has none. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

const WASM_PAGE = 65_536;
let h: DbHandle | undefined;
afterEach(async () => {
  await h?.close().catch(() => {});
  h = undefined;
});

describe('database worker memory metrics', () => {
  it("reports the worker's heap and PGlite's WebAssembly memory, which grows with a query's needs", async () => {
    h = await openDb({ dataDir: 'memory://' });
    expect(h.memory).toBeDefined();
    const metrics = createMetrics();
    metrics.watchDbMemory(h.memory!, true);
    const before = await metrics.text();
    const used = sample(before, 'exchange_db_worker_heap_used_bytes');
    const total = sample(before, 'exchange_db_worker_heap_total_bytes');
    const wasm = sample(before, 'exchange_pglite_memory_bytes');
    expect(used).toBeGreaterThan(1_000_000);
    expect(total).toBeGreaterThanOrEqual(used!);
    expect(wasm).toBeGreaterThan(16 * 1024 * 1024);
    expect(wasm! % WASM_PAGE).toBe(0);
    // A sort of 64 MB of text in one query makes PostgreSQL take more memory than PGlite started with.
    await h.db.execute("set work_mem = '256MB'");
    await h.db.execute('select count(*) from (select repeat(md5(g::text), 8) as t from generate_series(1, 250000) g order by t) s');
    // Scrapes within a second share one answer of the worker: wait it out.
    await new Promise((r) => setTimeout(r, 1100));
    const after = sample(await metrics.text(), 'exchange_pglite_memory_bytes');
    expect(after).toBeGreaterThan(wasm!);
    expect(after! % WASM_PAGE).toBe(0);
  });

  it('keeps the last answer once the worker is gone; no gauge without a worker or PGlite', async () => {
    h = await openDb({ dataDir: 'memory://' });
    const metrics = createMetrics();
    metrics.watchDbMemory(h.memory!, true);
    const last = sample(await metrics.text(), 'exchange_pglite_memory_bytes');
    expect(last).toBeGreaterThan(0);
    await h.close();
    h = undefined;
    await new Promise((r) => setTimeout(r, 1100));
    expect(sample(await metrics.text(), 'exchange_pglite_memory_bytes')).toBe(last);

    const plain = await openDb({ dataDir: 'memory://', worker: false });
    try {
      expect(plain.memory).toBeUndefined();
      expect(sample(await createMetrics().text(), 'exchange_db_worker_heap_used_bytes')).toBeUndefined();
    } finally {
      await plain.close();
    }
    // A worker without PGlite (PostgreSQL's projection writer): its heap, no PGlite memory.
    const pgLike = createMetrics();
    pgLike.watchDbMemory(() => Promise.resolve({ heapUsedBytes: 5_000_000, heapTotalBytes: 8_000_000, wasmBytes: null }), false);
    const text = await pgLike.text();
    expect(sample(text, 'exchange_db_worker_heap_used_bytes')).toBe(5_000_000);
    expect(sample(text, 'exchange_db_worker_heap_total_bytes')).toBe(8_000_000);
    expect(sample(text, 'exchange_pglite_memory_bytes')).toBeUndefined();
  });
});
