/**
 * The engine host (ARCHITECTURE.md section 3, the journal): the single writer in front of the deterministic engine.
 *
 * submit(cmd) -> the sequencer gives it the next sequence number and a `ts` (Unix ms, monotonic:
 * max(Date.now(), last ts)) -> the journal writes it (group commit: every command that arrived while the
 * previous write+fdatasync was in flight goes into the next one, so one fsync serves all of them) -> only
 * when its batch is durable is it applied to the engine, in journal order, and its caller answered
 * ("durable before anyone is told") -> its events go to the projector (database) and to the in-process
 * listeners (WebSocket fan-out, market data).
 *
 * Where state lives (the journal is the truth):
 * - the journal (`<dataDir>/journal`) holds every command since genesis, or with JOURNAL_RETENTION=archive / delete
 *   (journal-retention.ts) those after the oldest kept snapshot, the older segments moved to the archive
 *   (JOURNAL_ARCHIVE_DIR) or deleted after each snapshot written; its first record (`genesis`) names it with a random
 *   journal id;
 * - the engine's state (balances, orders, users and their ids, the journal id) is a function of the journal;
 *   snapshots (`<dataDir>/snapshots`) only shorten recovery;
 * - the database (users, orders, trades) is a projection; its cursor row says which journal it projects and up
 *   to which sequence number. Sessions, codes, puzzles and favourites live only in the database (losing them
 *   logs users out; it moves no money).
 *
 * Recovery on start: the newest snapshot not ahead of the database's cursor (or genesis), then every journal
 * record after it; the projector writes the events after its cursor. Genesis is possible when the journal starts at
 * 1, or when its archive does (a lost database is rebuilt from the archive, then the journal). Refused loudly, never
 * guessed:
 * - corruption in the journal (a complete record with a bad checksum, or damage followed by data): the
 *   JournalCorruptError names the file, the offset and `npm run journal -- verify` / `repair`; only an
 *   incomplete record or an all-zero tail at the very end of the last segment is a torn write and is dropped;
 * - a journal that ends, after its torn tail, before its recorded durable position (durable-position.ts: the
 *   writer records it after each batch's fdatasync): acknowledged records were lost, JournalLossError, nothing
 *   truncated. Without a readable position file (a journal written before it existed) a short end is taken as
 *   a torn write, as before, and a warning says so;
 * - a database of another journal, or ahead of the journal (the journal was lost or rolled back);
 * - a database behind the oldest snapshot when neither the journal nor its archive starts at 1 (history is missing:
 *   with JOURNAL_RETENTION=delete it was deleted on purpose, and the message says to restore the database from a
 *   backup). A usable database is not made from a snapshot alone: the database's rows (users, orders, history) are
 *   written from the events of the commands, and a snapshot has no events.
 *
 * Faults while running:
 * - a failed write or fdatasync is fatal, as in PostgreSQL: the host stops taking commands (`failure` is set,
 *   readiness turns false), the callers of that batch get `outcome_unknown` (the batch may or may not be on
 *   disk; on restart the journal decides), those still queued get `service_unavailable` (never written), and
 *   `onFatal` is called (the server exits). The descriptor is never synced again.
 * - a command on which the engine throws (a bug) is answered `internal_error` and has no effect: the host
 *   rebuilds the state from the last snapshot and the commands since, without it (deterministic, so recovery
 *   skips it the same way). Its events are never published.
 * - while the projector is more than `maxProjectionBacklog` events behind (the database is down), new commands
 *   are refused with `service_unavailable`, so memory stays bounded; readiness is false meanwhile.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { decodeCommand, encodeCommand, Engine, MachineMissingError } from '@exchange/core';
import type { Command, CommandResult, EngineApi, EngineEvent, EngineMachine, EngineSnapshot } from '@exchange/core';
import type { Config } from '../config/env';
import type { Db } from '../db/client';
import { AppError } from '../shared/errors';
import type { HostFs } from './host-fs';
import { JournalWriter, listSegments, readJournal, verifyJournal, type RecordRun, type JournalObserver, type JournalStats } from './journal';
import { positionFile, readDurablePosition } from './durable-position';
import { applyJournalRetention, type JournalRetentionPolicy } from './journal-retention';
import { dataDirUsage, type DataDirUsage } from './disk-usage';
import { nodeFs } from './node-fs';
import { drizzleProjectionStore, type ProjectionStore } from '../db/projection-store';
import { createProjector, type Projector } from './projector';
import type { DomainProjection } from './projection';
import { listSnapshots, readSnapshot, writeSnapshot, type SnapshotFile } from './snapshot-store';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { EngineView } from './engine-view';

/** A command as submitted: the host assigns `ts`. */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'ts'> : never) : never;

/** Thrown at start when the database and the journal do not belong together; the message says what to do. */
export class JournalMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalMismatchError';
  }
}

/** What recovery did at start. */
export interface RecoveryReport {
  /** Sequence number of the snapshot restored (0 = started from an empty engine). */
  snapshotSeq: number;
  /** Journal records replayed after the snapshot. */
  replayed: number;
  /** Last sequence number after recovery. */
  lastSeq: number;
  /** A torn tail that was dropped, if any. */
  torn?: { file: string; offset: number; droppedBytes: number; reason: string };
  /** Commands skipped because the engine threw on them. */
  skipped: number[];
  /** The journal id (null only before the very first command). */
  journalId: string | null;
  /** Wall time of recovery in ms. */
  ms: number;
}

/** Counters for tests and metrics. */
export interface EngineHostStats {
  journal: JournalStats;
  /** Snapshot files written since start. */
  snapshots: number;
  /** Sequence number of the last applied command. */
  lastSeq: number;
  /** Events waiting for the database. */
  projectionBacklog: number;
  /** Commands submitted and waiting for the next journal batch (not the batch being written); absent on a port without a local queue. */
  queueDepth?: number;
  /**
   * Sequence number of the journal's last recorded durable position (durable-position.ts): every command up to it
   * is checked for loss at the next start; absent on a port without a local journal.
   */
  recordedSeq?: number;
  /** Journal segments moved to the archive / deleted by JOURNAL_RETENTION since start; absent on a port without a local journal. */
  segmentsArchived?: number;
  segmentsDeleted?: number;
}

/** The engine behind its journal (ARCHITECTURE.md section 3, the journal). */
export interface EngineHost {
  /** Read-only access to the live engine state (always the current state, even after a rebuild). */
  readonly engine: EngineApi;
  /**
   * Sequence, journal (durable, group commit) and apply a command; resolves after fsync. Rejects with AppError
   * 'service_unavailable' (503) when the host is closed, failed or the projection is too far behind (nothing was
   * written), 'outcome_unknown' (503) when the journal write of its batch failed, 'internal_error' when the
   * engine threw on it (nothing applied).
   */
  submit(cmd: CommandInput): Promise<CommandResult>;
  /** Listen to every applied command's events, in order, after they are durable. Returns an unsubscribe. */
  onEvents(listener: (events: EngineEvent[], cmd: Command) => void): () => void;
  /** Wait until the projector has written every event applied so far to the database. */
  projected(): Promise<void>;
  close(): Promise<void>;
  /** What recovery did at start. */
  readonly recovery: RecoveryReport;
  /** Journal, snapshot and sequence counters. */
  readonly stats: EngineHostStats;
  /** Takes a snapshot now (between two batches) and waits until its file is written. */
  snapshotNow(): Promise<void>;
  /** The fatal error that stopped the host (a failed journal write), or null while it works. */
  readonly failure: unknown;
  /** True while commands are taken: not failed, not closing, projection backlog under its limit. */
  readonly ready: boolean;
  /**
   * The data directory's disk usage (journal, archive and snapshot bytes, free space of its file system, the alert
   * threshold; disk-usage.ts), read from the real disk; absent on a port without a local data directory and on a
   * host given another file system. Rejects when the directories cannot be read.
   */
  diskUsage?(): Promise<DataDirUsage>;
}

/** Dependencies and tuning of the host. */
export interface EngineHostDeps {
  /**
   * The data directory and snapshot interval; JOURNAL_RETENTION (default keep), JOURNAL_ARCHIVE_DIR (default
   * `<dataDir>/journal-archive`, read at recovery whatever the policy) and DISK_FREE_ALERT_BYTES (default 0) when given.
   */
  config: Pick<Config, 'dataDir' | 'snapshotEvery'> & Partial<Pick<Config, 'journalRetention' | 'journalArchiveDir' | 'diskFreeAlertBytes'>>;
  /** The database to project into (or `store`). */
  db?: Db;
  /** Where the projector writes (default: the database tables of `db`). */
  store?: ProjectionStore;
  /** The domains' projections the projector writes (main/domains.ts `PROJECTIONS`; [] projects the cursor only). */
  projections: readonly DomainProjection[];
  /**
   * The engine machines beyond the core's own (main/domains.ts `MACHINES`, the domain modules' `machine`; default
   * none). The same list must be given to every process applying this journal (@exchange/core machine.ts).
   */
  machines?: readonly EngineMachine[];
  log: FastifyBaseLogger;
  /** The file system (default: node's). The fault simulator passes a MemoryFs. */
  fs?: HostFs;
  /** Projector batch interval in ms (default 50). */
  projectorFlushMs?: number;
  /** Clock in Unix ms (default Date.now); tests may pin it. */
  now?: () => number;
  /** Called once when the host stops on a fatal journal error (the server exits; the journal decides on restart). */
  onFatal?: (err: unknown) => void;
  /** Most events the projector may hold before commands are refused (default 200,000). */
  maxProjectionBacklog?: number;
  /** A new journal id for genesis (default: a random UUID). */
  newJournalId?: () => string;
  /** How a command is applied (default engine.execute). Tests inject faults here. */
  execute?: (engine: Engine, cmd: Command) => CommandResult;
  /** Told of every durable journal batch (metrics: group-commit size, write and fdatasync time). */
  journalObserver?: JournalObserver;
}

interface Pending {
  seq: number;
  cmd: Command;
  body: Uint8Array;
  resolve: (r: CommandResult) => void;
  reject: (e: unknown) => void;
}

type Candidate = { kind: 'snapshot'; seq: number; file: string } | { kind: 'genesis'; seq: 0 };

/**
 * Commands applied live that are kept (as their journal bytes) to rebuild the state without one that threw, before
 * the in-memory base moves on. Not counted during recovery: the records replayed are in memory anyway (their
 * segment buffers), and a snapshot of the state every 100,000 replayed commands cost more than the replay itself
 * (the idempotency keys of a busy day are copied each time).
 */
const REBASE_EVERY = 100_000;

/** Default of EngineHostDeps.maxProjectionBacklog. */
export const DEFAULT_MAX_PROJECTION_BACKLOG = 200_000;

/** Recovers the engine from `<dataDir>/snapshots` and `<dataDir>/journal`, then starts the sequencer. */
export async function createEngineHost(deps: EngineHostDeps): Promise<EngineHost> {
  const { config } = deps;
  const fs = deps.fs ?? nodeFs;
  const now = deps.now ?? Date.now;
  const exec = deps.execute ?? ((e: Engine, c: Command) => e.execute(c));
  const maxBacklog = deps.maxProjectionBacklog ?? DEFAULT_MAX_PROJECTION_BACKLOG;
  const journalDir = path.join(config.dataDir, 'journal');
  const snapshotDir = path.join(config.dataDir, 'snapshots');
  const archiveDir = config.journalArchiveDir || path.join(config.dataDir, 'journal-archive');
  const started = performance.now();
  const store = deps.store ?? (deps.db ? drizzleProjectionStore(deps.db) : undefined);
  if (!store) throw new Error('createEngineHost: pass db or store');
  // one process writes a data directory (on the real file system; the fault simulator's is its own)
  const lock = deps.fs === undefined ? acquireDataDirLock(config.dataDir) : null;
  try {
    return await startHost(deps, { fs, now, exec, maxBacklog, journalDir, snapshotDir, archiveDir, started, store, lock });
  } catch (err) {
    lock?.release();
    throw err;
  }
}

async function startHost(
  deps: EngineHostDeps,
  s: {
    fs: HostFs;
    now: () => number;
    exec: (e: Engine, c: Command) => CommandResult;
    maxBacklog: number;
    journalDir: string;
    snapshotDir: string;
    archiveDir: string;
    started: number;
    store: ProjectionStore;
    lock: DataDirLock | null;
  },
): Promise<EngineHost> {
  const { config, log } = deps;
  const { fs, now, exec, maxBacklog, journalDir, snapshotDir, archiveDir, started, store, lock } = s;
  const engineOptions = { machines: deps.machines ?? [] };
  const retention: JournalRetentionPolicy = config.journalRetention ?? 'keep';
  await fs.mkdirp(journalDir);
  await fs.mkdirp(snapshotDir);
  const projector: Projector = await createProjector({ store, log, projections: deps.projections, flushMs: deps.projectorFlushMs });
  const cursor = projector.cursor;
  const dbJournal = projector.journalId;

  // ---- choose the starting state ------------------------------------------------------------------
  const snaps = await listSnapshots(fs, snapshotDir);
  const segments = await listSegments(fs, journalDir);
  // Genesis: the journal starts at 1, or its archive does (the archive's segments are read before the journal's).
  const archived = segments.length === 0 || segments[0]!.start === 1 ? [] : await listSegments(fs, archiveDir);
  const genesisPossible = segments.length === 0 || segments[0]!.start === 1 || archived[0]?.start === 1;
  const candidates: Candidate[] = [
    ...snaps.filter((s) => s.seq <= cursor).map((s) => ({ kind: 'snapshot' as const, ...s })),
    ...(genesisPossible ? [{ kind: 'genesis' as const, seq: 0 as const }] : []),
  ];
  let engine: Engine | undefined;
  /** The state recovery and rebuilds start from: a snapshot (seq, state) or the empty engine (seq 0). */
  let base: { seq: number; snap: EngineSnapshot | null } = { seq: 0, snap: null };
  let lastTs = 0;
  for (const c of candidates) {
    if (c.kind === 'genesis') {
      engine = new Engine(engineOptions);
      break;
    }
    try {
      const snap = await readSnapshot(fs, c.file);
      const restored = Engine.restore(snap.engine as EngineSnapshot, engineOptions);
      const hash = restored.stateHash();
      if (hash !== snap.stateHash) throw new Error(`state hash ${hash} differs from the recorded ${snap.stateHash}`);
      engine = restored;
      base = { seq: snap.seq, snap: snap.engine as EngineSnapshot };
      lastTs = snap.lastTs;
      break;
    } catch (err) {
      // Without a machine whose state the snapshot holds, an older state would replay its commands as refused.
      if (err instanceof MachineMissingError) throw err;
      log.warn({ err, file: c.file }, 'snapshot unusable, trying an older one');
    }
  }
  if (!engine) {
    // Corruption is the more useful message (the journal is checked in full below otherwise).
    const verified = await verifyJournal(fs, journalDir);
    if (verified.corrupt) throw verified.corrupt;
    const start = `cannot recover: the database is at sequence ${cursor}${cursor === 0 ? ' (empty: lost or new)' : ''}, no usable snapshot in ${snapshotDir} is at or before it, and the journal in ${journalDir} does not start at 1`;
    throw new JournalMismatchError(
      retention === 'delete'
        ? `${start}: its history was pruned by JOURNAL_RETENTION=delete (the segments the oldest snapshot covered were deleted), so the database cannot be rebuilt from the journal. Restore the database from a backup that is not older than the oldest snapshot (\`npm run restore\`, docs/operations.md), with the journal and snapshots of this data directory; to keep history for such a rebuild, use JOURNAL_RETENTION=archive.`
        : `${start} and the archive in ${archiveDir} does not either (older segments are missing). Restore the missing journal segments (into the journal or the archive), or restore the database from a backup that is not older than the oldest snapshot.`,
    );
  }

  // ---- replay the journal after it ------------------------------------------------------------------
  let journalId: string | null = null;
  /** Sequence number of the snapshot recovery starts from (0 = genesis). */
  const snapshotSeq = base.seq;
  // Every segment's checksums are verified in the same pass, also those the snapshot covers (the database may need
  // them to be rebuilt): a corruption anywhere stops recovery.
  const durable = await readDurablePosition(fs, journalDir);
  if (durable.kind !== 'ok' && segments.length > 0) {
    log.warn(
      { file: positionFile(journalDir), ...(durable.kind === 'damaged' ? { detail: durable.detail } : {}) },
      durable.kind === 'missing'
        ? 'journal: no recorded durable position (a journal written before it was kept): a short end of the journal is taken as a torn write, as before; the position is recorded from this start on'
        : 'journal: the recorded durable position is damaged (no intact record): a short end of the journal is taken as a torn write, as before; a new one is recorded from this start on',
    );
  }
  const read = await readJournal(fs, journalDir, snapshotSeq, {
    truncate: true,
    verifyAll: true,
    archiveDir,
    ...(durable.kind === 'ok' ? { durable: durable.position } : {}),
  });
  if (read.torn) log.warn(read.torn, 'journal: torn last record dropped and truncated (it was never acknowledged)');
  if (base.seq > 0 && read.count === 0) {
    // The snapshot's own last command must still be in the journal, or the journal lost acknowledged records.
    const check = await readJournal(fs, journalDir, base.seq - 1, { truncate: false });
    if (check.lastSeq < base.seq) {
      throw new JournalMismatchError(
        `the journal in ${journalDir} ends before sequence ${base.seq}, which the snapshot includes: acknowledged commands are missing from the journal. Restore the journal from a backup; do not start on this data directory.`,
      );
    }
  }
  let lastSeq = read.lastSeq;
  // The journal's id first (a database of another journal is the more useful message than "ahead").
  const firstRun = read.runs[0];
  if (engine.journalId() === null && firstRun !== undefined && firstRun.scan.start + firstRun.from === 1) {
    const cmd = decodeCommand(firstRun.scan.buf, firstRun.scan.bodyStart(firstRun.from), firstRun.scan.bodyEnd(firstRun.from));
    if (cmd.type === 'genesis' && dbJournal !== null && dbJournal !== cmd.journalId) bindJournal(cmd.journalId);
  } else if (engine.journalId() !== null) {
    bindJournal(engine.journalId()!);
  }
  if (cursor > lastSeq) {
    throw new JournalMismatchError(
      `the database has projected up to sequence ${cursor} but the journal in ${journalDir} ends at ${lastSeq}: the journal was lost or rolled back, or this database belongs to another data directory. Restore the journal; do not start with this pair (money would be handed out twice).`,
    );
  }

  /** Once the journal's id is known: refuse a database of another journal, then bind the projector. */
  function bindJournal(id: string): void {
    if (dbJournal !== null && dbJournal !== id) {
      throw new JournalMismatchError(
        `the database projects journal ${dbJournal} but the journal in ${journalDir} is ${id}: they do not belong together. Point DATABASE_URL (or DATA_DIR) at the matching pair, or start with an empty database to rebuild it from this journal.`,
      );
    }
    if (dbJournal === null && cursor > 0) {
      throw new JournalMismatchError(
        `the database has a projection cursor (${cursor}) but no journal id: it was written by an older version. Start with an empty database to rebuild it from the journal.`,
      );
    }
    journalId = id;
    projector.bind(id);
  }

  /**
   * Commands since `base`, to rebuild the state without one that threw: the first `replayedSinceBase` records of
   * `replayedRuns` (the journal records replayed at start, still in their segment buffers), then `sinceBase`
   * (commands applied live, as their journal bytes). Decoded again only for a rebuild.
   */
  let replayedRuns: RecordRun[] = read.runs;
  let replayedSinceBase = 0;
  let sinceBase: Array<{ seq: number; body: Uint8Array }> = [];
  const skipped = new Set<number>();
  let eng: Engine = engine;

  /** Moves the base to the current state `snap` (after command `seq`): nothing before it is kept for rebuilds. */
  function rebase(seq: number, snap: EngineSnapshot): void {
    base = { seq, snap };
    replayedRuns = [];
    replayedSinceBase = 0;
    sinceBase = [];
    skipped.clear();
  }

  /** The state after every command since `base` (skipping those in `skipped`); never throws for skipped ones. */
  function rebuild(): Engine {
    const e = base.snap === null ? new Engine(engineOptions) : Engine.restore(base.snap, engineOptions);
    let left = replayedSinceBase;
    for (const { scan, from } of replayedRuns) {
      for (let i = from; i < scan.count && left > 0; i++, left--) {
        if (!skipped.has(scan.start + i)) exec(e, decodeCommand(scan.buf, scan.bodyStart(i), scan.bodyEnd(i)));
      }
    }
    for (const r of sinceBase) if (!skipped.has(r.seq)) exec(e, decodeCommand(r.body));
    return e;
  }

  /**
   * Applies `cmd` (journal bytes `body` when applied live; null while replaying, where the record stays in its
   * segment buffer); on an engine exception rebuilds the state without it and returns null.
   */
  function applyOne(seq: number, cmd: Command, body: Uint8Array | null): CommandResult | null {
    try {
      const r = exec(eng, cmd);
      if (body !== null) {
        sinceBase.push({ seq, body });
        // Bound the memory kept for rebuilds (rare snapshots): move the in-memory base forward.
        if (sinceBase.length + replayedSinceBase >= REBASE_EVERY) rebase(seq, eng.snapshot());
      }
      return r;
    } catch (err) {
      log.error({ err, seq, type: cmd.type }, 'engine threw; the command is skipped and the state rebuilt without it');
      skipped.add(seq);
      eng = rebuild();
      return null;
    }
  }

  let replayed = 0;
  for (const { scan, from } of read.runs) {
    const segBuf = scan.buf;
    for (let i = from; i < scan.count; i++) {
      const seq = scan.start + i;
      const cmd = decodeCommand(segBuf, scan.bodyStart(i), scan.bodyEnd(i));
      const r = applyOne(seq, cmd, null);
      replayedSinceBase++;
      lastTs = Math.max(lastTs, cmd.ts);
      if (journalId === null && eng.journalId() !== null) bindJournal(eng.journalId()!);
      if (r !== null && seq > cursor && journalId !== null) projector.push(seq, r.events);
      replayed++;
      if (replayed % 2000 === 0 && projector.buffered >= 5000) await projector.flush();
    }
  }
  if (journalId === null && lastSeq > 0) {
    throw new JournalMismatchError(
      `the journal in ${journalDir} has no genesis record: it was written by an older version. Move the data directory away to start anew.`,
    );
  }
  if (journalId === null && (dbJournal !== null || cursor > 0)) {
    throw new JournalMismatchError(
      `the journal in ${journalDir} is empty but the database projects journal ${dbJournal ?? '(unknown)'} up to sequence ${cursor}: the journal was lost. Restore it; do not start with an empty journal (user ids and balances would be handed out again).`,
    );
  }
  const writer = await JournalWriter.open(fs, journalDir, lastSeq + 1);
  writer.observer = deps.journalObserver;
  const recovery: RecoveryReport = {
    snapshotSeq,
    replayed,
    lastSeq,
    ...(read.torn ? { torn: read.torn } : {}),
    skipped: [...skipped],
    journalId,
    ms: Math.round(performance.now() - started),
  };
  log.info(recovery, 'engine recovered');

  // ---- the sequencer ---------------------------------------------------------------------------------
  let nextSeq = lastSeq + 1;
  let lastSnapshotSeq = snapshotSeq;
  let snapshotsWritten = 0;
  let segmentsArchived = 0;
  let segmentsDeleted = 0;
  let snapshotChain: Promise<void> = Promise.resolve();
  const queue: Pending[] = [];
  const listeners = new Set<(events: EngineEvent[], cmd: Command) => void>();
  let looping = false;
  let idle: Array<() => void> = [];
  let failed: unknown = null;
  let closing = false;
  let snapshotRequested = false;
  let snapshotWaiters: Array<() => void> = [];

  function apply(p: Pending): void {
    const result = applyOne(p.seq, p.cmd, p.body);
    lastSeq = p.seq;
    if (result === null) {
      p.reject(new AppError('internal_error', 500));
      return;
    }
    if (journalId === null && p.cmd.type === 'genesis' && result.code === 'ok') bindJournal(p.cmd.journalId);
    projector.push(p.seq, result.events);
    if (result.events.length > 0) {
      for (const l of listeners) {
        try {
          l(result.events, p.cmd);
        } catch (err) {
          log.error({ err }, 'event listener threw');
        }
      }
    }
    p.resolve(result);
  }

  /**
   * Captures the state between two batches and rotates the journal (only ever called from the loop, so no
   * append runs meanwhile); the file is written in the background once the projector has caught up. Then the
   * journal's retention applies (journal-retention.ts; nothing with `keep`): to the segments covered by the oldest
   * kept snapshot, once two are kept, and by the database's cursor.
   */
  async function beginSnapshot(): Promise<void> {
    if (lastSeq === lastSnapshotSeq) return;
    const state = eng.snapshot();
    const snap: SnapshotFile = { format: 1, seq: lastSeq, lastTs, stateHash: eng.stateHash(), engine: state };
    lastSnapshotSeq = lastSeq;
    rebase(lastSeq, state);
    await writer.rotate(lastSeq + 1);
    snapshotChain = snapshotChain.then(async () => {
      try {
        await projector.projected();
        await writeSnapshot(fs, snapshotDir, snap);
        snapshotsWritten++;
        log.info({ seq: snap.seq }, 'snapshot written');
      } catch (err) {
        log.error({ err, seq: snap.seq }, 'snapshot failed');
        return;
      }
      if (retention === 'keep') return;
      try {
        const kept = await listSnapshots(fs, snapshotDir);
        // The newest snapshot's fallback is the older one: the journal after it stays. The database needs the journal
        // after its cursor (a restart replays from the newest snapshot not ahead of it).
        if (kept.length < 2) return;
        const covered = Math.min(kept.at(-1)!.seq, projector.cursor);
        const done = await applyJournalRetention(fs, journalDir, retention, archiveDir, covered);
        segmentsArchived += done.archived;
        segmentsDeleted += done.deleted;
        if (done.archived + done.deleted > 0) log.info({ covered, ...done }, 'journal retention: covered segments pruned');
      } catch (err) {
        // Nothing is lost (a segment is in the journal, the archive or both); the next snapshot tries again.
        log.error({ err, retention }, 'journal retention failed');
      }
    });
  }

  function fail(err: unknown, batch: Pending[]): void {
    failed = err;
    log.fatal({ err }, 'journal write failed; the engine host stops taking commands (the journal decides on restart)');
    // The batch may or may not be on disk: its outcome is unknown until a restart reads the journal.
    for (const p of batch) p.reject(new AppError('outcome_unknown', 503));
    // Commands still queued were never written: they failed, and will not appear after a restart.
    for (const p of queue.splice(0, queue.length)) p.reject(new AppError('service_unavailable', 503));
    try {
      deps.onFatal?.(err);
    } catch (e) {
      log.error({ err: e }, 'onFatal threw');
    }
  }

  async function loop(): Promise<void> {
    for (;;) {
      const due = config.snapshotEvery > 0 && lastSeq - lastSnapshotSeq >= config.snapshotEvery;
      if ((snapshotRequested || due) && failed === null) {
        snapshotRequested = false;
        try {
          await beginSnapshot();
        } catch (err) {
          // A failed rotation leaves the journal's state unknown, like a failed write.
          fail(err, []);
        }
        const waiting = snapshotWaiters;
        snapshotWaiters = [];
        for (const w of waiting) w();
      }
      if (queue.length === 0 || failed !== null) break;
      const batch = queue.splice(0, queue.length);
      try {
        await writer.append(batch.map((p) => ({ seq: p.seq, body: p.body })));
      } catch (err) {
        fail(err, batch);
        break;
      }
      for (const p of batch) apply(p);
    }
    looping = false;
    const waiting = [...idle, ...snapshotWaiters];
    idle = [];
    snapshotWaiters = [];
    for (const w of waiting) w();
  }

  function kick(): void {
    if (looping) return;
    looping = true;
    void loop();
  }

  /** Resolves when no batch is being written or waiting. */
  function drained(): Promise<void> {
    if (!looping && queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => idle.push(resolve));
  }

  /** Has the loop take a snapshot before its next batch; resolves when the state is captured. */
  function requestSnapshot(): Promise<void> {
    return new Promise((resolve) => {
      snapshotWaiters.push(resolve);
      snapshotRequested = true;
      kick();
    });
  }

  function enqueue(input: CommandInput): Promise<CommandResult> {
    const ts = Math.max(now(), lastTs);
    lastTs = ts;
    const cmd = { ...input, ts } as Command;
    const seq = nextSeq++;
    const body = encodeCommand(cmd);
    return new Promise<CommandResult>((resolve, reject) => {
      queue.push({ seq, cmd, body, resolve, reject });
      kick();
    });
  }

  // A new journal starts with its genesis record, which names it.
  if (lastSeq === 0) {
    const id = (deps.newJournalId ?? randomUUID)();
    const r = await enqueue({ type: 'genesis', journalId: id });
    if (r.code !== 'ok') throw new Error(`genesis refused: ${r.code}`);
    recovery.journalId = id;
  }
  if (replayed > 0 && replayed >= config.snapshotEvery) void requestSnapshot();

  const view = new EngineView(() => eng, deps.machines);
  return {
    engine: view,
    recovery,
    get stats(): EngineHostStats {
      return {
        journal: { ...writer.stats },
        snapshots: snapshotsWritten,
        lastSeq,
        projectionBacklog: projector.buffered,
        queueDepth: queue.length,
        recordedSeq: writer.recordedPosition?.seq ?? 0,
        segmentsArchived,
        segmentsDeleted,
      };
    },
    get failure() {
      return failed;
    },
    get ready() {
      return failed === null && !closing && projector.buffered <= maxBacklog;
    },
    submit(input: CommandInput): Promise<CommandResult> {
      if (closing || failed !== null) return Promise.reject(new AppError('service_unavailable', 503));
      if (projector.buffered > maxBacklog) return Promise.reject(new AppError('service_unavailable', 503));
      return enqueue(input);
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    projected: () => projector.projected(),
    ...(deps.fs === undefined ? { diskUsage: () => dataDirUsage(config.dataDir, archiveDir, config.diskFreeAlertBytes ?? 0) } : {}),
    async snapshotNow() {
      await requestSnapshot();
      await snapshotChain;
    },
    async close() {
      if (closing) return;
      closing = true;
      await drained();
      if (failed === null) await requestSnapshot();
      await snapshotChain;
      await projector.close();
      await writer.close();
      listeners.clear();
      lock?.release();
    },
  };
}
