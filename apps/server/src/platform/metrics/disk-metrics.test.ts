/**
 * Proves the disk gauges (metrics.ts, engine-host/disk-usage.ts) on a real engine host: after snapshots with
 * JOURNAL_RETENTION=archive, `exchange_data_dir_bytes{part}` reports the bytes of the journal, the archive and the
 * snapshots as on disk, `exchange_data_dir_free_bytes` and `exchange_data_dir_fs_size_bytes` the file system's figures
 * (statfs), `exchange_disk_free_alert_bytes` the configured threshold, and `exchange_journal_segments_pruned_total`
 * the segments archived; a process whose engine port has no local data directory shows no disk gauge at all.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createEngineHost } from '../engine-host/engine-host';
import { MemoryProjectionStore } from '../db/projection-store';
import { createMetrics } from './metrics';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** The value of the sample `name` whose labels include `labels`, or undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[4]);
  }
  return undefined;
}

/** Bytes of the regular files directly in `dir`. */
function bytesIn(dir: string): number {
  return fs
    .readdirSync(dir)
    .map((f) => fs.statSync(path.join(dir, f)))
    .filter((st) => st.isFile())
    .reduce((a, st) => a + st.size, 0);
}

describe('disk metrics', () => {
  it('report the journal, archive and snapshot bytes, the free space and the alert threshold', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'disk-metrics-'));
    try {
      const host = await createEngineHost({
        projections: [],
        config: { dataDir, snapshotEvery: 5, journalRetention: 'archive', diskFreeAlertBytes: 123_456_789 },
        store: new MemoryProjectionStore(),
        log,
        projectorFlushMs: 5,
      });
      for (let i = 0; i < 40; i++) await host.submit({ type: 'addAsset', asset: { code: `A${i}`, scale: 8 } });
      await host.snapshotNow();
      const metrics = createMetrics();
      expect(sample(await metrics.text(), 'exchange_data_dir_free_bytes')).toBeUndefined();
      metrics.watchHost(host);
      const text = await metrics.text();
      const journal = bytesIn(path.join(dataDir, 'journal'));
      const archive = bytesIn(path.join(dataDir, 'journal-archive'));
      const snapshots = bytesIn(path.join(dataDir, 'snapshots'));
      expect(archive).toBeGreaterThan(journal);
      expect(sample(text, 'exchange_data_dir_bytes', { part: 'journal' })).toBe(journal);
      expect(sample(text, 'exchange_data_dir_bytes', { part: 'journal_archive' })).toBe(archive);
      expect(sample(text, 'exchange_data_dir_bytes', { part: 'snapshots' })).toBe(snapshots);
      const st = fs.statfsSync(dataDir);
      const free = sample(text, 'exchange_data_dir_free_bytes')!;
      expect(free).toBeGreaterThan(0);
      expect(Math.abs(free - st.bavail * st.bsize)).toBeLessThan(64 * 1024 * 1024);
      expect(sample(text, 'exchange_data_dir_fs_size_bytes')).toBe(st.blocks * st.bsize);
      expect(sample(text, 'exchange_disk_free_alert_bytes')).toBe(123_456_789);
      expect(sample(text, 'exchange_journal_segments_pruned_total', { action: 'archive' })).toBe(host.stats.segmentsArchived);
      expect(host.stats.segmentsArchived).toBeGreaterThan(0);
      await host.close();

      // An engine port without a local data directory (the scale-out mode's): no disk gauge, so no false alert.
      const remote = createMetrics();
      remote.watchHost({ stats: { lastSeq: 1, projectionBacklog: 0 }, projected: () => Promise.resolve() });
      expect(sample(await remote.text(), 'exchange_data_dir_free_bytes')).toBeUndefined();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
