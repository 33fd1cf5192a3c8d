/**
 * Benchmark 3: journal replay. A child process journals N = 1M real-flow commands through the engine
 * host (snapshots disabled) into a temp data dir; a second child recovers from it (genesis + replay)
 * and, in the same process, times the in-memory engine executing the same commands. Prints seconds
 * to recover (target: <= 3 s for 1M on a quiet machine), replay commands/s and the ratio replay / raw
 * execute rate. New journals are in the binary record format (codec.ts encodeCommand), ~50 bytes a record.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTsForResult } from './child';
import { dataRoot } from './data/paths';
import { fmtInt, fmtRatio, heading, table } from './report';

/** Result of the replay benchmark. */
export interface ReplayResult {
  commands: number;
  recoverySeconds: number;
  replayPerS: number;
  rawPerS: number;
}

/** Run it with `n` commands (default 1M). Returns undefined when skipped. */
export async function runJournalReplay(n = 1_000_000): Promise<ReplayResult | undefined> {
  heading(`3. Journal replay: recover ${fmtInt(n)} commands (vs in-memory execute, same run)`);
  if (dataRoot() === undefined) {
    console.log('  skipped: no data (../shared/data missing)');
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-replay-'));
  try {
    const here = import.meta.dirname;
    const gen = await runTsForResult(path.join(here, 'replay', 'generate.ts'), [dir, String(n)], ['--max-old-space-size=6144']);
    const genMs = gen.genMs as number;
    console.log(
      `  journal written through the engine host: ${fmtInt(gen.commands as number)} commands (${gen.rejected} rejected by the engine), ` +
        `${((gen.bytes as number) / 1e6).toFixed(1)} MB (${((gen.bytes as number) / (gen.commands as number)).toFixed(0)} bytes a record, binary format), ${gen.fsyncs} fsyncs, ${(genMs / 1000).toFixed(1)} s (${fmtInt(((gen.commands as number) * 1000) / genMs)} cmd/s)`,
    );
    const rec = await runTsForResult(path.join(here, 'replay', 'recover.ts'), [dir], ['--max-old-space-size=6144', '--expose-gc']);
    const replayed = rec.replayed as number;
    const recoveryMs = rec.recoveryMs as number;
    const replayPerS = (replayed * 1000) / recoveryMs;
    const rawPerS = ((rec.rawCommands as number) * 1000) / (rec.rawMs as number);
    console.log(
      `  recovered from snapshot seq ${rec.snapshotSeq} (database projection cursor at ${rec.cursor}): replayed ${fmtInt(replayed)}; state hash equal to a fresh in-memory execution: ${rec.sameStateHash}`,
    );
    table([
      ['measure', 'seconds', 'commands/s', 'ratio'],
      ['recovery (open + read + decode + execute)', (recoveryMs / 1000).toFixed(2), fmtInt(replayPerS), fmtRatio(replayPerS / rawPerS) + ' of raw'],
      ['  target, quiet machine', '<= 3.00', '', recoveryMs <= 3000 ? 'met' : 'not met'],
      ['  read journal alone (same files, timed apart)', ((rec.readMs as number) / 1000).toFixed(2), '', ''],
      ['  decode commands alone, into one array (timed apart)', ((rec.parseMs as number) / 1000).toFixed(2), '', ''],
      ['raw in-memory Engine.execute', ((rec.rawMs as number) / 1000).toFixed(2), fmtInt(rawPerS), '1.00x'],
    ]);
    return { commands: replayed, recoverySeconds: recoveryMs / 1000, replayPerS, rawPerS };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
