/**
 * The engine port over NATS JetStream (scale-out mode, `ENGINE_TRANSPORT=nats`): what a gateway's services use
 * instead of the embedded host. It has the EngineHost surface, so every service compiles and runs unchanged.
 *
 * - submit(cmd): stamps `ts` with this process's clock, publishes the command on the stream with a unique
 *   Nats-Msg-Id (a retried publish is stored once), and resolves only when both hold: JetStream acknowledged it
 *   (it is durably in the stream, replicated on an R3 stream) and this process's read replica has applied it,
 *   which gives the command's result. Group commit: while publishes are in flight, new commands queue and go out
 *   together as one message (a batch), so one ack serves many orders under load.
 * - engine: a read replica of the engine fed by the same stream, through the deterministic CommandApplier.
 *   A gateway reads balances, open orders and depth from it synchronously, as in the embedded mode, and its
 *   answers are read-your-writes: submit resolves after the replica applied the command.
 * - onEvents(listener): the replica's events, in stream order (WebSocket fan-out, market data): a socket on
 *   gateway A sees the fills of commands sent through gateway B.
 * - projected(): waits until the projector (the engine process) has written the database up to the replica's
 *   sequence number at the call, read from the projection cursor row.
 * - readBarrier (read-your-writes across gateways, platform/plugins/read-your-writes.ts): `streamBarrier` reads the
 *   stream's last sequence number (one request in flight however many readers, each answer read after the caller
 *   asked: freshReader) and waits, woken by the replica's applies (SeqGate), until the replica has applied it; a
 *   command any gateway acknowledged before the call is at or below that number. Past the caller's bound, or when
 *   the stream cannot be asked, it throws AppError 503 replica_behind: an old state is never answered.
 * - ready (the gateway's /readyz): false while the NATS connection is down or the replica is more than `maxLag`
 *   commands behind the stream for longer than `lagGraceMs`, so a load balancer routes away from a gateway whose
 *   answers would be stale; while the connection is down, submit fails at once with service_unavailable (503)
 *   instead of waiting out the publish attempts.
 *
 * Why a replica instead of asking the engine process for results (request/reply): the answer needs no second
 * hop and no engine process on the order path (the stream is the sequencer; the engine is deterministic), reads
 * need no network round trip, and a gateway keeps answering while the engine process restarts. The cost is CPU:
 * every gateway applies every command of its market group (about 1.5 us each, docs/deploy.md).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MachineMissingError, serializeCommand } from '@exchange/core';
import type { Command, CommandResult, EngineEvent, EngineMachine } from '@exchange/core';
import { AppError } from '../shared/errors';
import type { CommandInput, EngineHost, EngineHostStats, RecoveryReport } from '../engine-host/engine-host';
import { EngineView } from '../engine-host/engine-view';
import type { ProjectionStore } from '../db/projection-store';
import { CommandApplier, serializeBatch } from './applier';
import { openNatsJournal, type NatsJournal } from './nats-journal';
import { freshReader, SeqGate, type ReadBarrier } from './read-barrier';

/** Options of createNatsEnginePort. */
export interface NatsEnginePortOptions {
  natsUrl: string;
  /** Stream name prefix (natsNames). */
  prefix: string;
  /** JetStream replicas of the stream and snapshot store, if this process creates them (default 1). */
  replicas?: number;
  /** Production rules (NODE_ENV neither development nor test): a stream under 3 replicas is warned about at start. */
  productionRules?: boolean;
  log: FastifyBaseLogger;
  /** The projection cursor (projected()); usually drizzleProjectionStore(db). */
  store: ProjectionStore;
  /** Clock in Unix ms (default Date.now). */
  now?: () => number;
  /** The engine machines beyond the core's own (main/domains.ts `MACHINES`; default none), as the engine process has them. */
  machines?: readonly EngineMachine[];
  /** Longest wait for the replica to apply a published command before answering outcome_unknown (default 30 s). */
  applyTimeoutMs?: number;
  /** Longest wait for the journal's genesis at start (the engine process writes it; default 60 s). */
  genesisTimeoutMs?: number;
  /** Publishes in flight at once (default 4); commands arriving meanwhile share the next message. */
  maxInFlight?: number;
  /** Most commands in one message (default 256). */
  maxBatch?: number;
  /** Publish attempts with the same message id when the ack does not come (default 3). */
  publishAttempts?: number;
  /** Interval of the projection cursor poll of projected() (default 20 ms). */
  projectedPollMs?: number;
  /** Most commands the replica may be behind the stream and stay ready (default 1,000). */
  maxLag?: number;
  /** How long a lag beyond maxLag is tolerated before ready turns false (default 2,000 ms). */
  lagGraceMs?: number;
  /** Interval of the lag check against the stream's last sequence (default 1,000 ms). */
  lagCheckMs?: number;
}

interface Waiter {
  cmd: Command;
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
export async function createNatsEnginePort(o: NatsEnginePortOptions): Promise<EngineHost & { readBarrier: ReadBarrier }> {
  const started = performance.now();
  const now = o.now ?? Date.now;
  const log = o.log;
  const journal = await openNatsJournal(o.natsUrl, o.prefix, {
    name: 'exchange-gateway',
    replicas: o.replicas ?? 1,
    ...(o.productionRules === true ? { warn: (msg: string) => log.warn(msg) } : {}),
  });

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
      applier = new CommandApplier(snap, undefined, o.machines);
    } catch (err) {
      // without a machine whose state the snapshot holds, a replay from the start would refuse its commands
      if (err instanceof MachineMissingError) throw err;
      log.warn({ err }, 'snapshot unusable; replaying the stream from its start');
    }
  }
  if (applier === null) {
    if (bounds.first > 1)
      throw new Error(`the stream ${journal.names.stream} starts at ${bounds.first} and no usable snapshot is stored: cannot build the replica`);
    applier = new CommandApplier(null, undefined, o.machines);
  }
  const a = applier;
  const snapshotSeq = a.lastSeq;

  const listeners = new Set<(events: EngineEvent[], cmd: Command) => void>();
  /** Commands published and not yet applied, by the message id of the message that carries them (in order). */
  const waiting = new Map<string, Waiter[]>();
  /** Commands waiting for a publish slot. */
  const queue: Waiter[] = [];
  let inFlight = 0;
  /** The replica's applied sequence number and the callers waiting for one (submit, the read barrier). */
  const gate = new SeqGate(a.lastSeq);
  let failure: unknown = null;
  let closing = false;
  let published = 0;
  let publishedBytes = 0;
  let projectedCursor = 0;
  const skipped: number[] = [];

  function onMessage(m: { seq: number; data: Uint8Array; msgId: string | undefined }): void {
    if (m.seq <= a.lastSeq) return;
    const applied = a.apply(m.seq, m.data);
    const ws = m.msgId === undefined ? undefined : waiting.get(m.msgId);
    if (ws) waiting.delete(m.msgId!);
    applied.forEach((x, i) => {
      const w = ws?.[i];
      if (x.result === null || x.cmd === null) {
        skipped.push(m.seq);
        log.error(
          { seq: m.seq, index: i },
          x.cmd === null ? 'stream message is not a command; skipped' : 'engine threw; the command is skipped (every replica skips it)',
        );
        w?.reject(new AppError('internal_error', 500));
        return;
      }
      if (x.result.events.length > 0) {
        for (const l of listeners) {
          try {
            l(x.result.events, x.cmd);
          } catch (err) {
            log.error({ err }, 'event listener threw');
          }
        }
      }
      w?.resolve(x.result);
    });
    // A message whose commands were not all applied (not a batch of them): its remaining callers get an error.
    if (ws) for (const w of ws.slice(applied.length)) w.reject(new AppError('internal_error', 500));
    gate.advance(a.lastSeq);
  }

  /** Resolves once the replica has applied `seq`. */
  async function reached(seq: number): Promise<void> {
    await gate.wait(seq);
  }

  const stop = await journal.follow(a.lastSeq + 1, onMessage, (err) => {
    failure = err;
    log.fatal({ err }, 'the stream consumer failed; this gateway stops taking commands');
  });
  await reached(bounds.last);

  // The connection as the client reports it, and the replica's lag behind the stream (readiness, fail-fast submit).
  let connected = !journal.nc.isClosed();
  void (async () => {
    for await (const s of journal.nc.status()) {
      if (s.type === 'disconnect') {
        connected = false;
        log.warn({ stream: journal.names.stream }, 'NATS connection lost: not ready, commands refused until it is back');
      } else if (s.type === 'reconnect') {
        connected = true;
        log.info({ stream: journal.names.stream }, 'NATS connection back');
      }
    }
  })().catch(() => {});
  let lagSince: number | null = null;
  let lagging = false;
  const lagTimer = setInterval(() => {
    if (!connected || closing) return;
    journal.bounds().then(
      (b) => {
        const behind = b.last - a.lastSeq;
        if (behind <= (o.maxLag ?? 1_000)) {
          if (lagging) log.info({ behind }, 'replica caught up: ready again');
          lagSince = null;
          lagging = false;
          return;
        }
        const t = performance.now();
        lagSince ??= t;
        if (!lagging && t - lagSince >= (o.lagGraceMs ?? 2_000)) {
          lagging = true;
          log.warn({ behind }, 'replica behind the stream: not ready until it catches up');
        }
      },
      () => {},
    );
  }, o.lagCheckMs ?? 1_000);
  lagTimer.unref();

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
        // no retry while the connection is down: the caller hears outcome_unknown now, not after every attempt
        if (i >= attempts || closing || !connected) throw err;
        log.warn({ err, attempt: i }, 'publish not acknowledged; retrying with the same message id');
      }
    }
  }

  const maxInFlight = o.maxInFlight ?? 4;
  const maxBatch = o.maxBatch ?? 256;
  /**
   * Group commit over JetStream: up to `maxInFlight` publishes at once; commands that arrive meanwhile wait and go
   * out together in the next message (a JSON array, at most `maxBatch`), so one publish ack serves them all.
   */
  function pump(): void {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      void sendBatch(batch);
    }
  }

  async function sendBatch(batch: Waiter[]): Promise<void> {
    const msgId = randomUUID();
    const text = batch.length === 1 ? serializeCommand(batch[0]!.cmd) : serializeBatch(batch.map((w) => w.cmd));
    const body = Buffer.from(text, 'utf8');
    waiting.set(msgId, batch);
    let seq: number;
    try {
      seq = await publish(body, msgId);
    } catch (err) {
      waiting.delete(msgId);
      log.error({ err, commands: batch.length }, 'command publish failed; its outcome is unknown until the stream is read');
      for (const w of batch) w.reject(new AppError('outcome_unknown', 503));
      return;
    } finally {
      inFlight--;
      pump();
    }
    // In the stream: the replica's apply answers. Past the timeout the callers hear outcome_unknown (it will apply).
    const timer = setTimeout(() => {
      if (waiting.delete(msgId)) for (const w of batch) w.reject(new AppError('outcome_unknown', 503));
    }, o.applyTimeoutMs ?? 30_000);
    await reached(seq);
    clearTimeout(timer);
    // A duplicate ack names the first message, which carried the same id and so answered these callers already.
    if (waiting.delete(msgId)) for (const w of batch) w.reject(new AppError('outcome_unknown', 503));
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

  /** The stream's last sequence number, read from the server after the call (freshReader: one request in flight). */
  const streamLast = freshReader(async () => (await journal.bounds()).last);
  const readBarrier: ReadBarrier = {
    get appliedSeq() {
      return a.lastSeq;
    },
    async streamBarrier(timeoutMs: number): Promise<void> {
      if (closing || failure !== null || !connected) throw new AppError('replica_behind', 503);
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const target = await Promise.race([streamLast().catch(() => null), new Promise<null>((resolve) => (timer = setTimeout(resolve, timeoutMs, null)))]);
      clearTimeout(timer);
      if (target === null) throw new AppError('replica_behind', 503);
      const left = timeoutMs - (performance.now() - started);
      if (!(await gate.wait(target, Math.max(0, left)))) throw new AppError('replica_behind', 503);
    },
  };

  const view = new EngineView(() => a.engine, o.machines);
  const port: EngineHost & { readBarrier: ReadBarrier } = {
    readBarrier,
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
      return failure === null && !closing && !journal.nc.isClosed() && connected && !lagging;
    },
    submit(input: CommandInput): Promise<CommandResult> {
      if (closing || failure !== null || !connected) return Promise.reject(new AppError('service_unavailable', 503));
      const cmd = { ...input, ts: now() } as Command;
      return new Promise<CommandResult>((resolve, reject) => {
        queue.push({ cmd, resolve, reject });
        pump();
      });
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
      clearInterval(lagTimer);
      gate.close();
      for (const ws of waiting.values()) for (const w of ws) w.reject(new AppError('service_unavailable', 503));
      waiting.clear();
      for (const w of queue.splice(0, queue.length)) w.reject(new AppError('service_unavailable', 503));
      await stop();
      await journal.close();
      listeners.clear();
    },
  };
  return port;
}
