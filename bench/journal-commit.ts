/**
 * Micro-benchmark of the journal's group commit on the real disk (not part of `npm test`; run by hand):
 *
 *   npx tsx bench/journal-commit.ts [--clients 64] [--seconds 3] [--rounds 3] [--modes off,on,covering]
 *
 * `--clients` closed-loop submitters each hand one ~100-byte record to a committer loop (the engine host's: every
 * record queued during the previous write + fdatasync goes into the next `JournalWriter.append`) and wait for its
 * acknowledgement before the next. Modes, run alternately round after round (the machine is shared and noisy):
 * - `off`: no recorded durable position (`recordPosition: false`: the journal before the position file);
 * - `on`: the position file updated after the batches' fdatasyncs, off the acknowledgement path, coalesced, updates
 *   at least POSITION_UPDATE_INTERVAL_MS apart (the default);
 * - `eager`: as `on` without the interval (each update starts as soon as the previous one ends);
 * - `covering`: as `eager`, but a batch is acknowledged only once the position update covering it is durable.
 * Prints per mode the median over rounds of records/s, batches/s and ack latency p50/p99 (ms), and the ratios
 * against `off`. Only the ratios of one run are meant to be compared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JournalWriter, type JournalRecord } from '../apps/server/src/platform/engine-host/journal';
import { nodeFs } from '../apps/server/src/platform/engine-host/node-fs';

type Mode = 'off' | 'on' | 'eager' | 'covering';

interface RoundResult {
  recordsPerS: number;
  batchesPerS: number;
  p50: number;
  p99: number;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : fallback;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** One round: `clients` closed-loop submitters for `seconds` against a new journal in a temporary directory. */
async function round(mode: Mode, clients: number, seconds: number): Promise<RoundResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-bench-'));
  const dir = path.join(root, 'journal');
  try {
    const writer = await (JournalWriter.open as (...a: unknown[]) => Promise<JournalWriter>)(nodeFs, dir, 1, {
      recordPosition: mode !== 'off',
      ...(mode === 'eager' || mode === 'covering' ? { positionIntervalMs: 0 } : {}),
    });
    const body = Buffer.alloc(100, 7);
    let nextSeq = 1;
    let queue: Array<{ rec: JournalRecord; done: () => void }> = [];
    let looping = false;
    let batches = 0;
    const settle = (writer as unknown as { positionSettled?: () => Promise<void> }).positionSettled?.bind(writer);
    const loop = async (): Promise<void> => {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await writer.append(batch.map((b) => b.rec));
        batches++;
        if (mode === 'covering' && settle) {
          // Acknowledge once the position covering this batch is durable, without holding up the next batch.
          void settle().then(() => {
            for (const b of batch) b.done();
          });
        } else {
          for (const b of batch) b.done();
        }
      }
      looping = false;
    };
    const submit = (): Promise<void> =>
      new Promise((resolve) => {
        queue.push({ rec: { seq: nextSeq++, body }, done: resolve });
        if (!looping) {
          looping = true;
          void loop();
        }
      });
    const latencies: number[] = [];
    let records = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          await submit();
          latencies.push(performance.now() - t0);
          records++;
        }
      }),
    );
    const elapsed = (performance.now() - (until - seconds * 1000)) / 1000;
    await writer.close();
    latencies.sort((a, b) => a - b);
    return { recordsPerS: records / elapsed, batchesPerS: batches / elapsed, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const clients = Number.parseInt(arg('clients', '64'), 10);
  const seconds = Number.parseFloat(arg('seconds', '3'));
  const rounds = Number.parseInt(arg('rounds', '3'), 10);
  const modes = arg('modes', 'off,on,covering').split(',') as Mode[];
  const results = new Map<Mode, RoundResult[]>(modes.map((m) => [m, []]));
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
      const res = await round(mode, clients, seconds);
      results.get(mode)!.push(res);
      console.log(
        `round ${r + 1} ${mode.padEnd(8)} ${res.recordsPerS.toFixed(0)} records/s  ${res.batchesPerS.toFixed(0)} batches/s  p50 ${res.p50.toFixed(2)} ms  p99 ${res.p99.toFixed(2)} ms`,
      );
    }
  }
  const med = (m: Mode, k: keyof RoundResult) => median(results.get(m)!.map((x) => x[k]));
  /** Median over rounds of the ratio to `off` in the same round (pairs what ran side by side). */
  const paired = (m: Mode, k: keyof RoundResult) => median(results.get(m)!.map((x, i) => x[k] / results.get('off')![i]![k]));
  console.log(`\nmedians over ${rounds} rounds, ${clients} clients, ${seconds} s each:`);
  for (const m of modes) {
    const ratio = (k: keyof RoundResult) => (results.has('off') ? ` (x${(med(m, k) / med('off', k)).toFixed(3)})` : '');
    console.log(
      `  ${m.padEnd(8)} ${med(m, 'recordsPerS').toFixed(0)} records/s${ratio('recordsPerS')}  ${med(m, 'batchesPerS').toFixed(0)} batches/s  ` +
        `p50 ${med(m, 'p50').toFixed(2)} ms${ratio('p50')}  p99 ${med(m, 'p99').toFixed(2)} ms${ratio('p99')}`,
    );
    if (results.has('off') && m !== 'off') {
      console.log(
        `           paired per round (median of ratios to off): records/s x${paired(m, 'recordsPerS').toFixed(3)}  ` +
          `p50 x${paired(m, 'p50').toFixed(3)}  p99 x${paired(m, 'p99').toFixed(3)}`,
      );
    }
  }
}

void main();
