/**
 * The engine process of the scale-out mode (`npm run engine`, docs/deploy.md): the writer of everything derived
 * from the journal stream. It reads the JetStream stream in order through the deterministic CommandApplier (the
 * same state every gateway's replica has), projects the events into PostgreSQL (projector.ts, the cursor row
 * written in the same transaction as the rows: the database says itself how far it is) and stores snapshots of
 * the engine beside the stream (the object store `<prefix>-snap`), which shorten the start of every process.
 *
 * Start: creates the stream when missing and writes its genesis (a random journal id, published only onto an
 * empty stream); restores the stored snapshot when it is not ahead of the database's cursor, else replays from
 * the stream's start; refuses a database of another journal or one ahead of the stream (as the embedded host).
 * Crash at any instant: nothing is lost (the stream holds every acknowledged command; the projector's writes are
 * idempotent and its cursor is in the database), the restart replays from the snapshot or the cursor.
 *
 * A small HTTP endpoint (ENGINE_HTTP_PORT) answers /healthz (200 once caught up with the stream as it was at start)
 * and /state (sequence, state hash, per-asset totals, projection cursor) for operators and tests, and /metrics
 * (Prometheus text: last sequence, projector lag, process metrics; METRICS_TOKEN or loopback, platform/metrics).
 */
import http from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { MachineMissingError, type EngineEvent } from '@exchange/core';
import type { Config } from '../../platform/config/env';
import { openDb } from '../../platform/db/client';
import { JournalMismatchError } from '../../platform/engine-host/engine-host';
import { drizzleProjectionStore } from '../../platform/db/projection-store';
import { createProjector } from '../../platform/engine-host/projector';
import type { SnapshotFile } from '../../platform/engine-host/snapshot-store';
import { CommandApplier } from '../../platform/engine-port/applier';
import { ensureGenesis } from '../../platform/engine-port/nats-engine-port';
import { openNatsJournal, streamLimits } from '../../platform/engine-port/nats-journal';
import { createMetrics } from '../../platform/metrics/metrics';
import { answerMetrics } from '../../platform/metrics/metrics.routes';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../domains';

/** Events the projector may hold before reading the stream pauses until the database caught up. */
const MAX_PROJECTION_BACKLOG = 50_000;

/** The running engine process. */
export interface EngineProcess {
  /** Sequence number of the last command applied. */
  readonly lastSeq: number;
  /** The HTTP port of /healthz and /state. */
  readonly httpPort: number;
  close(): Promise<void>;
}

/** What /state answers. */
export interface EngineState {
  lastSeq: number;
  stateHash: string;
  journalId: string | null;
  /** Per-asset sum over every account, smallest units as decimal strings (zero for every asset: conservation). */
  assetTotals: Record<string, string>;
  projectedSeq: number;
  caughtUp: boolean;
}

/** Starts the engine process on `config` (NATS_URL, NATS_PREFIX, DATABASE_URL, SNAPSHOT_EVERY, ENGINE_HTTP_PORT). */
export async function startEngineProcess(config: Config, log: FastifyBaseLogger): Promise<EngineProcess> {
  if (!config.natsUrl || !config.databaseUrl) throw new Error('the engine process needs NATS_URL and DATABASE_URL');
  const started = performance.now();
  const handle = await openDb({
    schemaModule: SCHEMA_MODULE,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onPoolError: (err) => log.warn({ err }, 'database connection lost'),
  });
  const projector = await createProjector({ store: drizzleProjectionStore(handle.db), log, projections: PROJECTIONS });
  const cursor = projector.cursor;
  const journal = await openNatsJournal(config.natsUrl, config.natsPrefix, {
    name: 'exchange-engine',
    replicas: config.natsReplicas,
    limits: streamLimits(config),
  });
  await ensureGenesis(journal);
  const bounds = await journal.bounds();

  // ---- the starting state: the stored snapshot if the database has projected it, else the stream's start ----
  let applier: CommandApplier | null = null;
  let snap: SnapshotFile | null = null;
  try {
    snap = await journal.readSnapshot();
  } catch (err) {
    log.warn({ err }, 'snapshot unreadable');
  }
  if (snap !== null && snap.seq <= cursor && snap.seq <= bounds.last) {
    try {
      applier = new CommandApplier(snap, undefined, MACHINES);
    } catch (err) {
      // without a machine whose state the snapshot holds, a replay from the start would refuse its commands
      if (err instanceof MachineMissingError) throw err;
      log.warn({ err }, 'snapshot unusable');
    }
  }
  if (applier === null) {
    if (bounds.first > 1) {
      throw new JournalMismatchError(
        `the stream ${journal.names.stream} starts at ${bounds.first}, and no stored snapshot is at or before the database's cursor (${cursor}): restore the database from a newer backup, or the stream's older messages.`,
      );
    }
    applier = new CommandApplier(null, undefined, MACHINES);
  }
  if (cursor > bounds.last) {
    throw new JournalMismatchError(
      `the database has projected up to ${cursor} but the stream ${journal.names.stream} ends at ${bounds.last}: the stream was lost or this database belongs to another one. Do not start with this pair.`,
    );
  }
  const a = applier;
  const snapshotSeq = a.lastSeq;
  let journalId: string | null = null;
  const bindJournal = (id: string): void => {
    if (projector.journalId !== null && projector.journalId !== id) {
      throw new JournalMismatchError(
        `the database projects journal ${projector.journalId} but the stream ${journal.names.stream} is ${id}: they do not belong together.`,
      );
    }
    journalId = id;
    projector.bind(id);
  };
  if (a.engine.journalId() !== null) bindJournal(a.engine.journalId()!);

  let lastSnapshotSeq = snapshotSeq;
  let snapshotChain: Promise<void> = Promise.resolve();
  let snapshotsWritten = 0;
  let fatal: unknown = null;

  function takeSnapshot(): void {
    const s = a.snapshot();
    lastSnapshotSeq = s.seq;
    snapshotChain = snapshotChain.then(async () => {
      try {
        // Only a snapshot the database has reached is usable at the next start (it must not skip projection).
        await projector.projected();
        await journal.writeSnapshot(s);
        snapshotsWritten++;
        log.info({ seq: s.seq }, 'snapshot stored');
      } catch (err) {
        log.error({ err, seq: s.seq }, 'snapshot failed');
      }
    });
  }

  let caughtUp = bounds.last <= a.lastSeq;
  let resolveCaughtUp: () => void = () => undefined;
  const caughtUpP = new Promise<void>((r) => (resolveCaughtUp = r));
  if (caughtUp) resolveCaughtUp();

  const stop = await journal.follow(
    a.lastSeq + 1,
    async (m) => {
      if (fatal !== null || m.seq <= a.lastSeq) return;
      // One message = one command or a batch of them; the projector takes their events under the message's sequence.
      const events: EngineEvent[] = [];
      for (const x of a.apply(m.seq, m.data)) {
        if (x.cmd === null || x.result === null) {
          log.error({ seq: m.seq }, x.cmd === null ? 'stream message is not a command; skipped' : 'engine threw; the command is skipped');
          continue;
        }
        if (journalId === null && x.cmd.type === 'genesis' && x.result.code === 'ok') {
          try {
            bindJournal(x.cmd.journalId);
          } catch (err) {
            fatal = err;
            log.fatal({ err }, 'journal mismatch');
            return;
          }
        }
        for (const e of x.result.events) events.push(e);
      }
      if (m.seq > cursor && journalId !== null) projector.push(m.seq, events);
      if (!caughtUp && a.lastSeq >= bounds.last) {
        caughtUp = true;
        resolveCaughtUp();
      }
      if (config.snapshotEvery > 0 && a.lastSeq - lastSnapshotSeq >= config.snapshotEvery) takeSnapshot();
      // Backpressure: the database sets the pace when it falls behind (memory stays bounded).
      if (projector.buffered > MAX_PROJECTION_BACKLOG) await projector.flush();
    },
    (err) => {
      fatal = err;
      log.fatal({ err }, 'the stream consumer failed');
    },
  );
  await caughtUpP;
  if (fatal !== null) throw fatal;
  log.info(
    {
      snapshotSeq,
      replayed: a.lastSeq - snapshotSeq,
      lastSeq: a.lastSeq,
      projectedFrom: cursor,
      journalId,
      ms: Math.round(performance.now() - started),
      stream: journal.names.stream,
    },
    'engine recovered',
  );

  function state(): EngineState {
    const totals: Record<string, string> = {};
    for (const [asset, v] of a.engine.assetTotals()) totals[asset] = v.toString();
    return { lastSeq: a.lastSeq, stateHash: a.engine.stateHash(), journalId, assetTotals: totals, projectedSeq: projector.cursor, caughtUp };
  }

  // GET /metrics (platform/metrics): sequence and projector lag of this process, and the process defaults.
  const metrics = createMetrics();
  metrics.watchHost({
    stats: {
      get lastSeq() {
        return a.lastSeq;
      },
      get projectionBacklog() {
        return projector.buffered;
      },
    },
    projected: () => projector.projected(),
  });
  const server = http.createServer((req, res) => {
    const ok = fatal === null;
    if (req.url === '/metrics') {
      void answerMetrics(req, res, metrics, config.metricsToken);
    } else if (req.url === '/healthz') {
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'failed', lastSeq: a.lastSeq }));
    } else if (req.url === '/state') {
      void projector
        .projected()
        .then(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...state(), snapshots: snapshotsWritten })));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.engineHttpPort, config.host, () => resolve());
  });
  const address = server.address();
  const httpPort = typeof address === 'object' && address !== null ? address.port : config.engineHttpPort;

  let closed = false;
  return {
    get lastSeq() {
      return a.lastSeq;
    },
    httpPort,
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((r) => server.close(() => r()));
      await stop();
      if (fatal === null && a.lastSeq > lastSnapshotSeq) takeSnapshot();
      await snapshotChain;
      await projector.close();
      await journal.close();
      await handle.close();
    },
  };
}
