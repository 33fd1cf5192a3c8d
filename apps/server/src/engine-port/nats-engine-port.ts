/**
 * The engine port over NATS JetStream (scale-out mode, `ENGINE_TRANSPORT=nats`): what a gateway's services use
 * instead of the embedded host. It has the EngineHost surface, so every service compiles and runs unchanged.
 *
 * - submit(cmd): stamps `ts` with this process's clock, publishes the command on the stream with a unique
 *   Nats-Msg-Id (a retried publish is stored once), and resolves only when both hold: JetStream acknowledged it
 *   (it is durably in the stream, replicated on an R3 stream) and this process's read replica has applied it,
 *   which gives the command's result.
 * - engine: a read replica of the engine fed by the same stream, through the deterministic CommandApplier.
 *   A gateway reads balances, open orders and depth from it synchronously, as in the embedded mode, and its
 *   answers are read-your-writes: submit resolves after the replica applied the command.
 * - onEvents(listener): the replica's events, in stream order (WebSocket fan-out, market data): a socket on
 *   gateway A sees the fills of commands sent through gateway B.
 * - projected(): waits until the projector (the engine process) has written the database up to the replica's
 *   sequence number at the call, read from the projection cursor row.
 *
 * Why a replica instead of asking the engine process for results (request/reply): the answer needs no second
 * hop and no engine process on the order path (the stream is the sequencer; the engine is deterministic), reads
 * need no network round trip, and a gateway keeps answering while the engine process restarts. The cost is CPU:
 * every gateway applies every command of its market group (about 1.5 us each, docs/deploy.md).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { serializeCommand } from '@exchange/core';
import type { Command, CommandResult, EngineEvent } from '@exchange/core';
import { AppError } from '../shared/errors';
import type { CommandInput, EngineHost, EngineHostStats, RecoveryReport } from '../engine-host/engine-host';
import { EngineView } from '../engine-host/engine-view';
import type { ProjectionStore } from '../engine-host/projection-store';
import { CommandApplier } from './applier';
import { openNatsJournal, type NatsJournal } from './nats-journal';

/** Options of createNatsEnginePort. */
export interface NatsEnginePortOptions {
  natsUrl: string;
  /** Stream name prefix (natsNames). */
  prefix: string;
  /** JetStream replicas of the stream and snapshot store, if this process creates them (default 1). */
  replicas?: number;
  log: FastifyBaseLogger;
  /** The projection cursor (projected()); usually drizzleProjectionStore(db). */
  store: ProjectionStore;
  /** Clock in Unix ms (default Date.now). */
  now?: () => number;
  /** Longest wait for the replica to apply a published command before answering outcome_unknown (default 30 s). */
  applyTimeoutMs?: number;
  /** Longest wait for the journal's genesis at start (the engine process writes it; default 60 s). */
  genesisTimeoutMs?: number;
  /** Publish attempts with the same message id when the ack does not come (default 3). */
  publishAttempts?: number;
  /** Interval of the projection cursor poll of projected() (default 20 ms). */
  projectedPollMs?: number;
}

interface Waiter {
  resolve: (r: CommandResult) => void;
  reject: (e: unknown) => void;
}

/** Publishes the genesis command when the stream is empty; losing the race to another process is fine. */
export async function ensureGenesis(journal: NatsJournal, journalId: string = randomUUID()): Promise<void> {
  const { last } = await journal.bounds();
  if (last > 0) return;
  const body = Buffer.from(serializeCommand({ type: 'genesis', journalId, ts: Date.now() } as Command), 'utf8');
  try {
    await journal.publish(body, `genesis-${journalId}`, 0);
  } catch (err) {
    // "wrong last sequence": another process wrote the first message.
    if ((await journal.bounds()).last === 0) throw err;
  }
}

/** Connects, restores the replica (snapshot + stream), and resolves once it has caught up with the stream. */
export async function createNatsEnginePort(o: NatsEnginePortOptions): Promise<EngineHost> {
  const started = performance.now();
  const now = o.now ?? Date.now;
  const log = o.log;
  const journal = await openNatsJournal(o.natsUrl, o.prefix, { name: 'exchange-gateway', replicas: o.replicas ?? 1 });

  // The first message of the stream is the genesis that names the journal; the engine process writes it.
  const genesisDeadline = Date.now() + (o.genesisTimeoutMs ?? 60_000);
  let bounds = await journal.bounds();
  while (bounds.last === 0) {
    if (Date.now() > genesisDeadline) throw new Error(`the stream ${journal.names.stream} is empty: start the engine process (npm run engine) first`);
    await new Promise((r) => setTimeout(r, 200));
    bounds = await journal.bounds();
  }

  let applier: CommandApplier | null = null;
  const snap = await journal.readSnapshot().catch((err: unknown) => {
    log.warn({ err }, 'snapshot unreadable; replaying the stream from its start');
    return null;
  });
  if (snap !== null) {
    try {
      applier = new CommandApplier(snap);
    } catch (err) {
      log.warn({ err }, 'snapshot unusable; replaying the stream from its start');
    }
  }
  if (applier === null) {
    if (bounds.first > 1) throw new Error(`the stream ${journal.names.stream} starts at ${bounds.first} and no usable snapshot is stored: cannot build the replica`);
    applier = new CommandApplier(null);
  }
  const a = applier;
  const snapshotSeq = a.lastSeq;

  const listeners = new Set<(events: EngineEvent[], cmd: Command) => void>();
  const waiting = new Map<string, Waiter>();
  let seqWaiters: Array<{ seq: number; resolve: () => void }> = [];
  let failure: unknown = null;
  let closing = false;
  let published = 0;
  let publishedBytes = 0;
  let projectedCursor = 0;
  const skipped: number[] = [];

  function onMessage(m: { seq: number; data: Uint8Array; msgId: string | undefined }): void {
    if (m.seq <= a.lastSeq) return;
    const applied = a.apply(m.seq, m.data);
    const w = m.msgId === undefined ? undefined : waiting.get(m.msgId);
    if (w) waiting.delete(m.msgId!);
    if (applied.result === null || applied.cmd === null) {
      skipped.push(m.seq);
      log.error({ seq: m.seq }, applied.cmd === null ? 'stream message is not a command; skipped' : 'engine threw; the command is skipped (every replica skips it)');
      w?.reject(new AppError('internal_error', 500));
    } else {
      if (applied.result.events.length > 0) {
        for (const l of listeners) {
          try {
            l(applied.result.events, applied.cmd);
          } catch (err) {
            log.error({ err }, 'event listener threw');
          }
        }
      }
      w?.resolve(applied.result);
    }
    if (seqWaiters.length > 0) {
      const due = seqWaiters.filter((s) => s.seq <= a.lastSeq);
      if (due.length > 0) {
        seqWaiters = seqWaiters.filter((s) => s.seq > a.lastSeq);
        for (const s of due) s.resolve();
      }
    }
  }

  /** Resolves once the replica has applied `seq`. */
  function reached(seq: number): Promise<void> {
    if (a.lastSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => seqWaiters.push({ seq, resolve }));
  }

  const stop = await journal.follow(a.lastSeq + 1, onMessage, (err) => {
    failure = err;
    log.fatal({ err }, 'the stream consumer failed; this gateway stops taking commands');
  });
  await reached(bounds.last);
  const recovery: RecoveryReport = {
    snapshotSeq,
    replayed: a.lastSeq - snapshotSeq,
    lastSeq: a.lastSeq,
    skipped,
    journalId: a.engine.journalId(),
    ms: Math.round(performance.now() - started),
  };
  log.info({ ...recovery, stream: journal.names.stream }, 'engine replica recovered');

  async function publish(body: Buffer, msgId: string): Promise<number> {
    const attempts = o.publishAttempts ?? 3;
    for (let i = 1; ; i++) {
      try {
        const ack = await journal.publish(body, msgId);
        published++;
        publishedBytes += body.length;
        return ack.seq;
      } catch (err) {
        if (i >= attempts || closing) throw err;
        log.warn({ err, attempt: i }, 'publish not acknowledged; retrying with the same message id');
      }
    }
  }

  let polling: Promise<void> | null = null;
  /** Reads the projection cursor until it reaches `seq`. */
  async function pollCursor(seq: number): Promise<void> {
    const every = o.projectedPollMs ?? 20;
    while (projectedCursor < seq && !closing) {
      const st = await o.store.load();
      projectedCursor = st.cursor;
      if (projectedCursor < seq) await new Promise((r) => setTimeout(r, every));
    }
  }

  const view = new EngineView(() => a.engine);
  const port: EngineHost = {
    engine: view,
    recovery,
    get stats(): EngineHostStats {
      return {
        journal: { fsyncs: 0, batches: published, records: published, bytes: publishedBytes },
        snapshots: 0,
        lastSeq: a.lastSeq,
        projectionBacklog: Math.max(0, a.lastSeq - projectedCursor),
      };
    },
    get failure() {
      return failure;
    },
    get ready() {
      return failure === null && !closing && !journal.nc.isClosed();
    },
    async submit(input: CommandInput): Promise<CommandResult> {
      if (closing || failure !== null) throw new AppError('service_unavailable', 503);
      const cmd = { ...input, ts: now() } as Command;
      const body = Buffer.from(serializeCommand(cmd), 'utf8');
      const msgId = randomUUID();
      const result = new Promise<CommandResult>((resolve, reject) => waiting.set(msgId, { resolve, reject }));
      // Settled by the replica even when this call already gave up (publish failed): never an unhandled rejection.
      result.catch(() => undefined);
      let seq: number;
      try {
        seq = await publish(body, msgId);
      } catch (err) {
        waiting.delete(msgId);
        log.error({ err }, 'command publish failed; its outcome is unknown until the stream is read');
        throw new AppError('outcome_unknown', 503);
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new AppError('outcome_unknown', 503)), o.applyTimeoutMs ?? 30_000);
      });
      try {
        // The message id resolves `result` when the replica applies it; `reached` covers a duplicate ack.
        return await Promise.race([result, timeout, reached(seq).then(() => (waiting.has(msgId) ? timeout : result))]);
      } finally {
        clearTimeout(timer);
        waiting.delete(msgId);
      }
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async projected() {
      const target = a.lastSeq;
      if (projectedCursor >= target) return;
      // One poll at a time; later callers wait for it and poll on if it stopped short of their target.
      while (projectedCursor < target && !closing) {
        if (polling === null) polling = pollCursor(target).finally(() => (polling = null));
        await polling;
      }
    },
    async snapshotNow() {
      // Snapshots are the engine process's (scale-out/engine-process.ts).
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const w of waiting.values()) w.reject(new AppError('service_unavailable', 503));
      waiting.clear();
      await stop();
      await journal.close();
      listeners.clear();
    },
  };
  return port;
}
