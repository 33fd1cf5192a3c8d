/**
 * Engine snapshots on disk: `<dir>/snapshot-<seq, 20 digits>.snap`, one frame (framing.ts) whose payload is
 * the UTF-8 JSON of `SnapshotFile`. Written atomically: temporary file, fsync, rename, fsync of the directory,
 * so a crash leaves either the old set of snapshots or the new one, never a half-written file under the final
 * name. Only the newest two are kept (the older one is the fallback if the newest cannot be read).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { encodeFrame, scanFrames } from './framing';
import { fsyncDir } from './journal';

const SNAPSHOT_RE = /^snapshot-(\d{20})\.snap$/;

/** Contents of a snapshot file. `engine` is the engine's JSON-serializable snapshot. */
export interface SnapshotFile {
  format: 1;
  /** Sequence number of the last command applied in this state. */
  seq: number;
  /** Last `ts` handed out by the sequencer (keeps ts monotonic across restarts). */
  lastTs: number;
  /** engine.stateHash() at `seq`, checked after restore. */
  stateHash: string;
  engine: unknown;
}

/** File name of the snapshot taken after command `seq`. */
export function snapshotName(seq: number): string {
  return `snapshot-${String(seq).padStart(20, '0')}.snap`;
}

/** Snapshots in `dir`, newest first, as { seq, file }. */
export function listSnapshots(dir: string): Array<{ seq: number; file: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => SNAPSHOT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number.parseInt(m[1]!, 10), file: path.join(dir, m[0]) }))
    .sort((a, b) => b.seq - a.seq);
}

/** Writes `snap` atomically and keeps only the newest `keep` snapshots. Returns the file path. */
export async function writeSnapshot(dir: string, snap: SnapshotFile, keep = 2): Promise<string> {
  await fsp.mkdir(dir, { recursive: true });
  const final = path.join(dir, snapshotName(snap.seq));
  const tmp = `${final}.tmp`;
  const frame = encodeFrame(Buffer.from(JSON.stringify(snap), 'utf8'));
  const fh = await fsp.open(tmp, 'w');
  try {
    await fh.writeFile(frame);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, final);
  await fsyncDir(dir);
  const all = listSnapshots(dir);
  for (const old of all.slice(keep)) await fsp.rm(old.file, { force: true });
  for (const f of fs.readdirSync(dir)) if (f.endsWith('.tmp') && path.join(dir, f) !== tmp) await fsp.rm(path.join(dir, f), { force: true });
  if (all.length > keep) await fsyncDir(dir);
  return final;
}

/** Reads and checks one snapshot file; throws when it is torn, corrupt or not a snapshot. */
export async function readSnapshot(file: string): Promise<SnapshotFile> {
  const buf = await fsp.readFile(file);
  const scan = scanFrames(buf);
  if (scan.torn || scan.payloads.length !== 1) throw new Error(`snapshot ${file} is damaged (${scan.torn?.reason ?? 'frames'})`);
  const snap = JSON.parse(scan.payloads[0]!.toString('utf8')) as SnapshotFile;
  if (snap.format !== 1 || typeof snap.seq !== 'number' || typeof snap.stateHash !== 'string') throw new Error(`snapshot ${file} has an unknown format`);
  return snap;
}
