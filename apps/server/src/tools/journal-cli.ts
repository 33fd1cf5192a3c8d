/**
 * The operator's journal tool (ARCHITECTURE.md section 3: the journal is the truth; corruption stops the server).
 *
 *   npm run journal -- verify [--data-dir DIR]
 *       Per segment: records, sequence range, bytes, and OK / torn tail (dropped at the next start) / CORRUPT at
 *       a byte offset with the reason; then the recorded durable position (durable-position.log), and LOSS when the
 *       journal ends before it (acknowledged records were cut away, not torn). Exit 0 when the server can recover
 *       from the journal, 2 when it is corrupt or lost acknowledged records.
 *   npm run journal -- repair --truncate-at <segment file>:<byte offset> [--data-dir DIR]
 *       Cuts the journal there and removes every later segment, durably, and prints what was discarded. Without
 *       --truncate-at it only prints what it would do and exits 1: a repair DISCARDS acknowledged commands, so it
 *       is never chosen for the operator. After a loss, the cut where the intact records end discards nothing more
 *       and records the journal's end as its durable position: it accepts the loss, so that the server starts.
 *
 * The journal is `<data dir>/journal`; the data directory is --data-dir, else DATA_DIR, else ./data (resolved as
 * the server resolves it, platform/config/env.ts). When the journal no longer starts at 1 (JOURNAL_RETENTION), both
 * commands say whether its archive (JOURNAL_ARCHIVE_DIR when set, else `<data dir>/journal-archive`; listed, not read)
 * holds the older segments from seq 1, from which a lost database is rebuilt. Exit 1 on a usage error.
 */
import path from 'node:path';
import { loadConfig } from '../platform/config/env';
import type { HostFs } from '../platform/engine-host/host-fs';
import {
  JournalLossError,
  listSegments,
  planJournalTruncation,
  truncateJournalAt,
  verifyJournal,
  type JournalRepairPlan,
  type JournalVerifyReport,
} from '../platform/engine-host/journal';
import { POSITION_FILE } from '../platform/engine-host/durable-position';
import { nodeFs } from '../platform/engine-host/node-fs';
import { listSnapshots } from '../platform/engine-host/snapshot-store';
import { runAsMain } from './run-main';

/** Where the CLI writes and what it works on; tests pass their own. */
export interface JournalCliIo {
  out(line: string): void;
  err(line: string): void;
  /** The file system (default nodeFs). */
  fs?: HostFs;
  /** The data directory when --data-dir is not given (default: the server's, from DATA_DIR or ./data). */
  defaultDataDir?: () => string;
  /** The journal's archive directory (default: JOURNAL_ARCHIVE_DIR when set, else `<data dir>/journal-archive`). */
  archiveDir?: (dataDir: string) => string;
}

/** The journal's archive (journal-retention.ts) as listed: its directory, segment count and first sequence numbers. */
interface ArchiveListing {
  dir: string;
  segments: number;
  /** First sequence number of its oldest segment (undefined when it has none). */
  first: number | undefined;
}

/** The archive directory of `dataDir`: JOURNAL_ARCHIVE_DIR when the configuration sets it, else `<dataDir>/journal-archive`. */
function defaultArchiveDir(dataDir: string): string {
  try {
    const config = loadConfig();
    if (config.journalArchiveDir !== path.join(config.dataDir, 'journal-archive')) return config.journalArchiveDir;
  } catch {
    // a configuration the server would refuse: the default place
  }
  return path.join(dataDir, 'journal-archive');
}

const USAGE = [
  'usage: npm run journal -- verify [--data-dir DIR]',
  '       npm run journal -- repair --truncate-at <segment file>:<byte offset> [--data-dir DIR]',
].join('\n');

/** Exit codes: 0 usable / repaired, 1 usage error or repair not confirmed, 2 corrupt or lost acknowledged records. */
const EXIT_OK = 0;
const EXIT_USAGE = 1;
const EXIT_CORRUPT = 2;

interface Args {
  command: string | undefined;
  dataDir: string | undefined;
  truncateAt: string | undefined;
}

function parseArgs(argv: string[]): Args | string {
  const args: Args = { command: undefined, dataDir: undefined, truncateAt: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (flag === '--data-dir' || flag === '--truncate-at') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return `${flag} needs a value`;
      if (flag === '--data-dir') args.dataDir = value;
      else args.truncateAt = value;
    } else if (a.startsWith('-')) {
      return `unknown option ${a}`;
    } else if (args.command === undefined) {
      args.command = a;
    } else {
      return `unexpected argument ${a}`;
    }
  }
  return args;
}

function range(first: number | undefined, last: number | undefined): string {
  return first === undefined ? 'no records' : first === last ? `seq ${first}` : `seq ${first}..${last}`;
}

/** Prints the per-segment report (and, when the journal starts after 1, what `archive` holds); returns true when the journal is usable. */
function printReport(report: JournalVerifyReport, io: JournalCliIo, archive: ArchiveListing): boolean {
  io.out(`journal ${report.dir}: ${report.segments.length} segment(s)`);
  const loss = report.corrupt instanceof JournalLossError ? report.corrupt : undefined;
  for (const s of report.segments) {
    const end = s.end;
    const status =
      end.kind === 'ok'
        ? 'OK'
        : end.kind === 'torn'
          ? loss
            ? `incomplete record at byte ${end.offset} (${end.reason}, ${end.droppedBytes} bytes): cut short BEFORE the recorded durable position, not a torn write`
            : `torn tail at byte ${end.offset} (${end.reason}): ${end.droppedBytes} bytes would be dropped at the next start (never acknowledged)`
          : `CORRUPT at byte ${end.error.offset} (${end.error.reason}): ${end.error.detail}`;
    io.out(`  ${path.basename(s.file)}  ${s.records} records  ${range(s.firstSeq, s.lastSeq)}  ${s.bytes} bytes  ${status}`);
  }
  const d = report.durable;
  io.out(
    d.kind === 'ok'
      ? `  ${POSITION_FILE}: durable up to seq ${d.position.seq}${loss ? `: LOSS, the journal ends at seq ${loss.journalEnd}` : ''}`
      : d.kind === 'missing'
        ? `  ${POSITION_FILE}: missing (a journal written before it was kept): a short end is taken as a torn write`
        : `  ${POSITION_FILE}: DAMAGED (${d.detail}): a short end is taken as a torn write; the next start records a new one`,
  );
  const first = report.segments[0];
  if (first && first.start > 1) {
    io.out(`  (the journal starts at seq ${first.start}: older segments were pruned; recovery needs a snapshot at seq ${first.start - 1} or later)`);
    io.out(
      archive.first === 1
        ? `  (the archive ${archive.dir} holds ${archive.segments} older segment(s) from seq 1: a lost database is rebuilt from it, then the journal)`
        : `  (no archive from seq 1 in ${archive.dir}: a lost database cannot be rebuilt from the journal; restore it from a backup)`,
    );
  }
  if (report.corrupt) {
    io.out(`result: CORRUPT. ${report.corrupt.message}`);
    return false;
  }
  io.out('result: usable');
  return true;
}

function printPlan(plan: JournalRepairPlan, io: JournalCliIo, done: boolean): void {
  const verb = done ? '' : 'would ';
  if (plan.truncated) io.out(`${verb}truncate ${path.basename(plan.truncated.file)} from ${plan.truncated.fromBytes} to ${plan.truncated.toBytes} bytes`);
  for (const s of plan.removed) io.out(`${verb}remove ${path.basename(s.file)}`);
  const d = plan.discarded;
  io.out(
    `${done ? 'discarded' : 'would discard'} ${d.records} readable record(s) (${range(d.firstSeq, d.lastSeq)})` +
      (d.unreadableBytes > 0 ? ` and ${d.unreadableBytes} unreadable bytes` : '') +
      `; the journal ${done ? 'now ends' : 'would end'} at seq ${plan.keptLastSeq}.`,
  );
}

/** Warns about what a cut journal no longer matches: newer snapshots and a database projection ahead of it. */
async function printConsequences(fs: HostFs, dataDir: string, plan: JournalRepairPlan, io: JournalCliIo): Promise<void> {
  const newer = (await listSnapshots(fs, path.join(dataDir, 'snapshots'))).filter((s) => s.seq > plan.keptLastSeq);
  for (const s of newer) {
    io.out(
      `WARNING: ${s.file} (seq ${s.seq}) includes discarded commands: move it out of the snapshots directory before starting, or the server refuses to start.`,
    );
  }
  io.out(
    `NOTE: a database that projected commands after seq ${plan.keptLastSeq} no longer matches the journal; the server refuses it (rebuild it from the journal).`,
  );
}

/**
 * Runs the CLI on `argv` (the arguments after the script name) and returns the exit code: 0 usable / repaired,
 * 1 usage error or repair without --truncate-at, 2 corrupt. Never calls process.exit; errors reading the files
 * are reported on `io.err` with exit code 1.
 */
export async function main(argv: string[], io: JournalCliIo = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const fs = io.fs ?? nodeFs;
  const args = parseArgs(argv);
  if (typeof args === 'string' || (args.command !== 'verify' && args.command !== 'repair')) {
    io.err(typeof args === 'string' ? `${args}\n${USAGE}` : USAGE);
    return EXIT_USAGE;
  }
  if (args.command === 'verify' && args.truncateAt !== undefined) {
    io.err(`--truncate-at belongs to repair\n${USAGE}`);
    return EXIT_USAGE;
  }
  const dataDir = path.resolve(args.dataDir ?? (io.defaultDataDir ?? (() => loadConfig().dataDir))());
  const journalDir = path.join(dataDir, 'journal');
  const dataDirArg = `--data-dir ${dataDir}`;
  const archiveDir = (io.archiveDir ?? defaultArchiveDir)(dataDir);
  try {
    const archived = await listSegments(fs, archiveDir);
    const archive: ArchiveListing = { dir: archiveDir, segments: archived.length, first: archived[0]?.start };
    const report = await verifyJournal(fs, journalDir);
    if (args.command === 'verify') return printReport(report, io, archive) ? EXIT_OK : EXIT_CORRUPT;

    if (args.truncateAt === undefined) {
      printReport(report, io, archive);
      if (!report.corrupt) {
        io.out('nothing to repair: the server recovers from this journal as it is (a torn tail is dropped at start).');
        return EXIT_USAGE;
      }
      const { file, offset } = report.corrupt;
      const plan = await planJournalTruncation(fs, journalDir, file, offset);
      io.out(`repair would cut the journal at ${path.basename(file)}:${offset}:`);
      printPlan(plan, io, false);
      await printConsequences(fs, dataDir, plan, io);
      const lost = report.corrupt instanceof JournalLossError ? report.corrupt : undefined;
      io.out(
        lost
          ? `Acknowledged commands seq ${lost.journalEnd + 1}..${lost.durable.seq} are lost: restore the journal from a backup instead if you can. To accept the loss (the recorded durable position comes down to seq ${plan.keptLastSeq}), run:`
          : 'These are acknowledged commands: restore the journal from a backup instead if you can. To discard them, run:',
      );
      io.out(`  npm run journal -- repair --truncate-at ${path.basename(file)}:${offset} ${dataDirArg}`);
      return EXIT_USAGE;
    }

    const m = /^(.+):(\d+)$/.exec(args.truncateAt);
    if (!m) {
      io.err(`--truncate-at takes <segment file>:<byte offset>, got "${args.truncateAt}"\n${USAGE}`);
      return EXIT_USAGE;
    }
    const plan = await truncateJournalAt(fs, journalDir, m[1]!, Number.parseInt(m[2]!, 10));
    io.out(`repaired journal ${journalDir}:`);
    printPlan(plan, io, true);
    await printConsequences(fs, dataDir, plan, io);
    io.out('after the repair:');
    return printReport(await verifyJournal(fs, journalDir), io, archive) ? EXIT_OK : EXIT_CORRUPT;
  } catch (err) {
    io.err(`journal ${args.command} failed: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_USAGE;
  }
}

runAsMain(import.meta.url, main);
