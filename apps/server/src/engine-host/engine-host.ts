/**
 * The engine host (DESIGN.md section 2): the single writer in front of the deterministic engine.
 *
 * submit(cmd) -> the sequencer gives it the next sequence number and a `ts` (Unix ms, monotonic:
 * max(Date.now(), last ts)) -> the journal writes it (group commit: every command that arrived while the
 * previous write+fdatasync was in flight goes into the next one, so one fsync serves all of them) -> only
 * when its batch is durable is it applied to the engine, in journal order, and its caller answered
 * ("durable before anyone is told") -> its events go to the projector (database) and to the in-process
 * listeners (WebSocket fan-out, market data).
 *
 * Snapshots: every `config.snapshotEvery` commands and at graceful close the engine state is captured between
 * two batches, the journal rotates to a new segment, and the snapshot file is written in the background once
 * the projector has caught up to it (so a snapshot never runs ahead of the database projection).
 * Recovery on start: the newest readable snapshot not ahead of the projection cursor, then every journal record
 * after it. A torn last record is logged, truncated and never applied. Replayed events are not re-published to
 * listeners; the projector receives those after its cursor and upserts them idempotently.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Engine, parseCommand, serializeCommand } from '@exchange/core';
import type { Command, CommandResult, EngineApi, EngineEvent, EngineSnapshot } from '@exchange/core';
import type { Config } from '../config/env';
import type { Db } from '../db/client';
import { AppError } from '../shared/errors';
import { JournalWriter, listSegments, pruneSegments, readJournal, type JournalStats } from './journal';
import { createProjector, type Projector } from './projector';
import { listSnapshots, readSnapshot, writeSnapshot, type SnapshotFile } from './snapshot-store';

/** A command as submitted: the host assigns `ts`. */
export type CommandInput = Command extends infer C ? (C extends Command ? Omit<C, 'ts'> : never) : never;

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
}

/** The engine behind its journal (DESIGN.md section 2). */
export interface EngineHost {
  /** Read-only access to the live engine state (never call execute on it). */
  readonly engine: EngineApi;
  /** Sequence, journal (durable, group commit) and apply a command; resolves after fsync. */
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
}

/** Dependencies and tuning of the host. */
export interface EngineHostDeps {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Projector batch interval in ms (default 50). */
  projectorFlushMs?: number;
  /** Clock in Unix ms (default Date.now); tests may pin it. */
  now?: () => number;
}

interface Pending {
  seq: number;
  cmd: Command;
  body: Buffer;
  resolve: (r: CommandResult) => void;
  reject: (e: unknown) => void;
}

type Candidate = { kind: 'snapshot'; seq: number; file: string } | { kind: 'genesis'; seq: 0 };

/** Recovers the engine from `<dataDir>/snapshots` and `<dataDir>/journal`, then starts the sequencer. */
export async function createEngineHost(deps: EngineHostDeps): Promise<EngineHost> {
  const { config, db, log } = deps;
  const now = deps.now ?? Date.now;
  const journalDir = path.join(config.dataDir, 'journal');
  const snapshotDir = path.join(config.dataDir, 'snapshots');
  const started = performance.now();

  const projector: Projector = await createProjector({ db, log, flushMs: deps.projectorFlushMs });
  const cursor = projector.cursor;

  // ---- choose the starting state ------------------------------------------------------------------
  const snaps = listSnapshots(snapshotDir);
  const segments = listSegments(journalDir);
  const genesisPossible = segments.length === 0 || segments[0]!.start === 1;
  const candidates: Candidate[] = [
    ...snaps.filter((s) => s.seq <= cursor).map((s) => ({ kind: 'snapshot' as const, ...s })),
    ...(genesisPossible ? [{ kind: 'genesis' as const, seq: 0 as const }] : []),
    ...snaps.filter((s) => s.seq > cursor).map((s) => ({ kind: 'snapshot' as const, ...s })),
  ];
  let engine: Engine | undefined;
  let snapshotSeq = 0;
  let lastTs = 0;
  for (const c of candidates) {
    if (c.kind === 'genesis') {
      engine = new Engine();
      snapshotSeq = 0;
      break;
    }
    try {
      const snap = await readSnapshot(c.file);
      const restored = Engine.restore(snap.engine as EngineSnapshot);
      const hash = restored.stateHash();
      if (hash !== snap.stateHash) throw new Error(`state hash ${hash} differs from the recorded ${snap.stateHash}`);
      engine = restored;
      snapshotSeq = snap.seq;
      lastTs = snap.lastTs;
      if (snap.seq > cursor) log.warn({ snapshotSeq: snap.seq, cursor }, 'snapshot is ahead of the database projection; history between them is missing');
      break;
    } catch (err) {
      log.warn({ err, file: c.file }, 'snapshot unusable, trying an older one');
    }
  }
  if (!engine) throw new Error(`no usable snapshot in ${snapshotDir} and the journal in ${journalDir} does not start at 1`);

  // ---- replay the journal after it ------------------------------------------------------------------
  const read = await readJournal(journalDir, snapshotSeq, { truncate: true });
  if (read.torn) log.warn(read.torn, 'journal: torn last record dropped and truncated (it was never acknowledged)');
  let replayed = 0;
  for (const rec of read.records) {
    const cmd = parseCommand(Buffer.from(rec.body).toString('utf8'));
    let events: EngineEvent[] = [];
    try {
      events = engine.execute(cmd).events;
    } catch (err) {
      log.error({ err, seq: rec.seq, type: cmd.type }, 'engine threw while replaying a command');
    }
    lastTs = Math.max(lastTs, cmd.ts);
    if (rec.seq > cursor) projector.push(rec.seq, events);
    replayed++;
    if (replayed % 2000 === 0 && projector.buffered >= 5000) await projector.flush();
  }
  let lastSeq = read.lastSeq;
  const writer = await JournalWriter.open(journalDir, lastSeq + 1);
  const recovery: RecoveryReport = {
    snapshotSeq,
    replayed,
    lastSeq,
    ...(read.torn ? { torn: read.torn } : {}),
    ms: Math.round(performance.now() - started),
  };
  log.info(recovery, 'engine recovered');
  const eng: Engine = engine;

  // ---- the sequencer ---------------------------------------------------------------------------------
  let nextSeq = lastSeq + 1;
  let lastSnapshotSeq = snapshotSeq;
  let snapshotsWritten = 0;
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
    let result: CommandResult;
    try {
      result = eng.execute(p.cmd);
    } catch (err) {
      // A bug in the engine: deterministic, so replay meets it again; answer internal_error and go on.
      log.error({ err, seq: p.seq, type: p.cmd.type }, 'engine threw');
      lastSeq = p.seq;
      p.reject(err);
      return;
    }
    lastSeq = p.seq;
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
   * append runs meanwhile); the file is written in the background once the projector has caught up.
   */
  async function beginSnapshot(): Promise<void> {
    if (lastSeq === lastSnapshotSeq) return;
    const snap: SnapshotFile = { format: 1, seq: lastSeq, lastTs, stateHash: eng.stateHash(), engine: eng.snapshot() };
    lastSnapshotSeq = lastSeq;
    await writer.rotate(lastSeq + 1);
    snapshotChain = snapshotChain.then(async () => {
      try {
        await projector.projected();
        await writeSnapshot(snapshotDir, snap);
        snapshotsWritten++;
        const older = listSnapshots(snapshotDir)[1];
        if (older) await pruneSegments(journalDir, older.seq);
        log.info({ seq: snap.seq }, 'snapshot written');
      } catch (err) {
        log.error({ err, seq: snap.seq }, 'snapshot failed');
      }
    });
  }

  async function loop(): Promise<void> {
    for (;;) {
      const due = config.snapshotEvery > 0 && lastSeq - lastSnapshotSeq >= config.snapshotEvery;
      if ((snapshotRequested || due) && failed === null) {
        snapshotRequested = false;
        try {
          await beginSnapshot();
        } catch (err) {
          log.error({ err }, 'snapshot rotation failed');
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
        // The journal's state is unknown: stop accepting commands rather than risk acknowledging a lost one.
        failed = err;
        log.fatal({ err }, 'journal write failed; the engine host stops accepting commands');
        for (const p of [...batch, ...queue.splice(0, queue.length)]) p.reject(new AppError('service_unavailable', 503));
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

  if (replayed > 0 && replayed >= config.snapshotEvery) void requestSnapshot();

  return {
    engine: eng,
    recovery,
    get stats(): EngineHostStats {
      return { journal: { ...writer.stats }, snapshots: snapshotsWritten, lastSeq };
    },
    submit(input: CommandInput): Promise<CommandResult> {
      if (closing || failed !== null) return Promise.reject(new AppError('service_unavailable', 503));
      const ts = Math.max(now(), lastTs);
      lastTs = ts;
      const cmd = { ...input, ts } as Command;
      const seq = nextSeq++;
      const body = Buffer.from(serializeCommand(cmd), 'utf8');
      return new Promise<CommandResult>((resolve, reject) => {
        queue.push({ seq, cmd, body, resolve, reject });
        kick();
      });
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    projected: () => projector.projected(),
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
    },
  };
}
