/**
 * Engine snapshots on disk: `<dir>/snapshot-<seq, 20 digits>.snap`, one frame (framing.ts) whose payload is
 * the UTF-8 JSON of `SnapshotFile`. Written atomically: temporary file, fsync, rename, fsync of the directory,
 * so a crash leaves either the old set of snapshots or the new one, never a half-written file under the final
 * name. Only the newest two are kept (the older one is the fallback if the newest cannot be read).
 * Every function takes the file system first (node-fs.ts `nodeFs` for the real disk, a `MemoryFs` in the fault
 * simulator).
 */
import path from 'node:path';
import { encodeFrame, scanFrames } from './framing';
import type { HostFs } from './host-fs';

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

/** Snapshots in `dir`, newest first, as { seq, file } (file = path.join(dir, name)); [] when `dir` is missing. */
export async function listSnapshots(fs: HostFs, dir: string): Promise<Array<{ seq: number; file: string }>> {
  return (await fs.readdir(dir))
    .map((f) => SNAPSHOT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number.parseInt(m[1]!, 10), file: path.join(dir, m[0]) }))
    .sort((a, b) => b.seq - a.seq);
}

/**
 * Writes `snap` atomically (temporary file, fdatasync, rename, fsync of `dir`, which is created durably when
 * missing), then keeps only the newest `keep` (default 2) snapshots and removes stray temporary files.
 * Returns the file path. Rejects when any step fails (the previous snapshots are then still in place).
 */
export async function writeSnapshot(fs: HostFs, dir: string, snap: SnapshotFile, keep = 2): Promise<string> {
  await fs.mkdirp(dir);
  const final = path.join(dir, snapshotName(snap.seq));
  const tmp = `${final}.tmp`;
  const frame = encodeFrame(Buffer.from(JSON.stringify(snap), 'utf8'));
  const fh = await fs.openTruncate(tmp);
  try {
    await fh.write(frame);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await fs.rename(tmp, final);
  await fs.fsyncDir(dir);
  const all = await listSnapshots(fs, dir);
  let removed = 0;
  for (const old of all.slice(keep)) {
    await fs.rm(old.file);
    removed++;
  }
  for (const f of await fs.readdir(dir)) {
    if (f.endsWith('.tmp')) {
      await fs.rm(path.join(dir, f));
      removed++;
    }
  }
  if (removed > 0) await fs.fsyncDir(dir);
  return final;
}

/** Reads and checks one snapshot file; throws when it is missing, torn, corrupt or not a snapshot. */
export async function readSnapshot(fs: HostFs, file: string): Promise<SnapshotFile> {
  const buf = await fs.readFile(file);
  const scan = scanFrames(buf);
  const damage = scan.torn?.reason ?? scan.corrupt?.reason;
  if (damage || scan.payloads.length !== 1) throw new Error(`snapshot ${file} is damaged (${damage ?? `${scan.payloads.length} frames`})`);
  const snap = JSON.parse(scan.payloads[0]!.toString('utf8')) as SnapshotFile;
  if (snap.format !== 1 || typeof snap.seq !== 'number' || typeof snap.stateHash !== 'string') throw new Error(`snapshot ${file} has an unknown format`);
  return snap;
}
