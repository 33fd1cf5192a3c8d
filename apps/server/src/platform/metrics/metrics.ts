/**
 * The operators' metrics of one process, on prom-client with a registry per process (tests
 * build many apps in one process; nothing goes to prom-client's global registry):
 *
 * - commands: `exchange_commands_total{type,code}` (order rate: type="placeOrder"/"cancelOrder", code="ok";
 *   rejected commands by code: code!="ok", including the host's own refusals service_unavailable /
 *   outcome_unknown / internal_error) and `exchange_command_duration_seconds{type}` from submit to answer
 *   (queue + journal + engine), measured around the engine port's `submit` (instrumentSubmit), so it is the same
 *   in the embedded and the NATS mode;
 * - HTTP: `http_request_duration_seconds{method,route,status}` per route pattern (never the URL: no user data),
 *   status as a class (2xx, 4xx, 5xx); setEntrust / cancelEntrust are the order-entry routes;
 * - journal: `exchange_journal_write_seconds`, `exchange_journal_fsync_seconds` and the group-commit size
 *   `exchange_journal_batch_records` of each durable batch (journalObserver, given to createEngineHost);
 * - engine host (read at each scrape from `host.stats`): `exchange_engine_queue_depth` (commands waiting for the
 *   next journal batch), `exchange_engine_commands_in_flight` (submitted, not yet answered),
 *   `exchange_engine_last_seq`, `exchange_projector_lag_events` (events not yet in the database) and
 *   `exchange_projector_lag_seconds` (see `projectorLagProbe`);
 * - disk (read at each scrape from `host.diskUsage()`, engine-host/disk-usage.ts; absent without a local data
 *   directory): `exchange_data_dir_bytes{part}` (part="journal", "journal_archive", "snapshots"),
 *   `exchange_data_dir_free_bytes` (space available on the data directory's file system),
 *   `exchange_data_dir_fs_size_bytes`, and the configured threshold `exchange_disk_free_alert_bytes`
 *   (DISK_FREE_ALERT_BYTES) for an alert rule `exchange_data_dir_free_bytes < exchange_disk_free_alert_bytes`; the
 *   journal's retention: `exchange_journal_segments_pruned_total{action}` (action="archive", "delete") since start;
 * - WebSocket (read at each scrape from the hub's counts): `exchange_ws_sockets`, `exchange_ws_subscribers{channel}`,
 *   `exchange_ws_send_backlog_bytes` (sum of bufferedAmount), `exchange_ws_slow_closed_total`,
 *   `exchange_ws_skipped_pushes_total`;
 * - the database worker thread (watchDbMemory; its own V8 isolate, which the process's heap metrics leave out):
 *   `exchange_db_worker_heap_used_bytes`, `exchange_db_worker_heap_total_bytes`, and PGlite's WebAssembly memory
 *   `exchange_pglite_memory_bytes` (PGlite only);
 * - security events (platform/plugins/security-events.ts): `exchange_security_events_total{kind,code}`;
 * - prom-client's default process metrics (CPU, memory, heap, event-loop lag, GC, handles).
 *
 * A process mounts them with `registerMetrics(app, metrics)` (metrics.routes.ts); a process without Fastify can
 * answer `await metrics.text()` with `metrics.contentType`.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { HotCounter, HotHistogram } from './hot-metrics';
import type { CommandResult } from '@exchange/core';
import type { CommandInput, EngineHostStats } from '../engine-host/engine-host';
import type { DataDirUsage } from '../engine-host/disk-usage';
import type { DbWorkerMemory } from '../db/db-worker-protocol';
import type { JournalObserver } from '../engine-host/journal';

/** Latency buckets (seconds) of commands and requests: 0.5 ms to 5 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];
/** Buckets (seconds) of one journal write or fdatasync: 50 us to 1 s. */
const DISK_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Buckets of the records in one group commit. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];

/** What the metrics read of an engine host (or of another engine port) at each scrape. */
export interface HostSource {
  readonly stats: Pick<EngineHostStats, 'lastSeq' | 'projectionBacklog'> &
    Partial<Pick<EngineHostStats, 'queueDepth' | 'segmentsArchived' | 'segmentsDeleted'>>;
  /** Resolves once the projector has written every event applied so far. */
  projected(): Promise<void>;
  /** The data directory's disk usage (engine-host/disk-usage.ts); absent without a local data directory (no disk gauges then). */
  diskUsage?(): Promise<DataDirUsage>;
}

/** The WebSocket hub's counts the metrics read (gateways/ws: WsHubStats). */
export interface WsSource {
  sockets: number;
  subscribers: Record<string, number>;
  bufferedBytes: number;
  closedSlow: number;
  skippedPushes: number;
}

/** Anything with the engine port's submit. */
export interface Submitter {
  submit(cmd: CommandInput): Promise<CommandResult>;
}

/** The metrics of one process. */
export interface ProcessMetrics {
  /** This process's metrics except the default process metrics (merged in by `text`). */
  readonly registry: Registry;
  /** Content-Type of `text()` (Prometheus text exposition format 0.0.4). */
  readonly contentType: string;
  /** Give to createEngineHost as `journalObserver`. */
  readonly journalObserver: JournalObserver;
  /** Replaces `port.submit` by one that counts and times every command (in place; returns `port`). */
  instrumentSubmit<P extends Submitter>(port: P): P;
  /** Reads the queue depth, sequence and projector lag of `host` at each scrape (a later call replaces it). */
  watchHost(host: HostSource): void;
  /**
   * Reads what the database worker thread holds in memory at each scrape: its heap, and with `pglite` PGlite's
   * WebAssembly memory (the gauges appear with the first call; a later call replaces the source).
   */
  watchDbMemory(read: () => Promise<DbWorkerMemory>, pglite: boolean): void;
  /** Reads the WebSocket hub's counts at each scrape (`read` returns undefined while there is no hub yet; a later call replaces it). */
  watchWs(read: () => WsSource | undefined): void;
  /** Records one HTTP request: its method, route pattern, HTTP status and duration in seconds. */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** Counts one security event of `kind` (security-events.ts) answered with the error `code`. */
  securityEvent(kind: string, code: string): void;
  /** Counts `rows` rows the retention job deleted under `rule` (platform/db/retention.ts; e.g. 'spot_trades:market'). */
  retentionDeleted(rule: string, rows: number): void;
  /** The exposition text of every metric now. */
  text(): Promise<string>;
}

/**
 * The projector's lag in seconds without a hook in the projector: a probe asks `projected()` and notes when it
 * asked; while the probe waits, the lag is how long it has waited (events applied at that moment are not all in
 * the database yet), and once it resolves, the time it took. Each read starts a new probe when none waits, so the
 * value is at most one scrape interval old. Returns the read function (seconds, >= 0).
 */
export function projectorLagProbe(projected: () => Promise<void>, nowMs: () => number = () => performance.now()): () => number {
  let waitingSince: number | null = null;
  let last = 0;
  return () => {
    const t = nowMs();
    const value = waitingSince === null ? last : (t - waitingSince) / 1000;
    if (waitingSince === null) {
      const started = t;
      waitingSince = started;
      projected().then(
        () => {
          last = (nowMs() - started) / 1000;
          waitingSince = null;
        },
        () => {
          waitingSince = null;
        },
      );
    }
    return value;
  };
}

/**
 * prom-client's default process metrics (CPU, memory, heap, event-loop lag, GC, handles), collected once per
 * process in a registry of their own and merged into each scrape: tests build many contexts in one process, and
 * each collection would start an event-loop delay monitor of its own.
 */
let processDefaults: Registry | undefined;
function processRegistry(): Registry {
  if (!processDefaults) {
    processDefaults = new Registry();
    collectDefaultMetrics({ register: processDefaults });
  }
  return processDefaults;
}

/**
 * `read` shared by the gauges of one scrape: asked at most once a second; a failed answer, or none (`read` answers
 * undefined: nothing to read yet), gives the last good one.
 */
function sharedRead<T>(read: () => Promise<T> | undefined): () => Promise<T | undefined> {
  let pending: Promise<T | undefined> | undefined;
  let at = Number.NEGATIVE_INFINITY;
  let lastGood: T | undefined;
  return () => {
    const t = performance.now();
    if (pending === undefined || t - at > 1000) {
      at = t;
      const p = read();
      pending = p
        ? p.then(
            (v) => (lastGood = v),
            () => lastGood,
          )
        : Promise.resolve(lastGood);
    }
    return pending;
  };
}

/** Unlabelled gauges, one per field of a shared read (name, help, field); no sample without an answer or for a null field. */
function fieldGauges<T>(
  registers: Registry[],
  read: () => Promise<T | undefined>,
  fields: readonly (readonly [name: string, help: string, field: (v: T) => number | null])[],
): void {
  for (const [name, help, field] of fields) {
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.reset();
        const v = await read();
        const x = v === undefined ? null : field(v);
        if (x !== null) this.set(x);
      },
    });
  }
}

/** Creates the metrics of this process (the default process metrics are merged into every scrape). */
export function createMetrics(): ProcessMetrics {
  const registry = new Registry();
  const registers = [registry];

  // The per-request and per-command metrics are hot-metrics.ts's (prom-client's observe costs microseconds a call).
  const commands = new HotCounter('exchange_commands_total', 'Commands answered by the engine port, by command type and result code (ok or the rejection)');
  const commandSeconds = new HotHistogram(
    'exchange_command_duration_seconds',
    'Seconds from submit to answer of a command (queue + journal + engine)',
    LATENCY_BUCKETS,
  );
  const http = new HotHistogram('http_request_duration_seconds', 'HTTP requests by method, route pattern and status class, in seconds', LATENCY_BUCKETS);
  for (const m of [commands, commandSeconds, http]) registry.registerMetric(m as unknown as Metric);
  /** Counts and times one answered command. */
  const commandDone = (type: string, code: string, started: number) => {
    commands.inc(`${type} ${code}`, () => ({ type, code }));
    commandSeconds.observe(type, () => ({ type }), (performance.now() - started) / 1000);
  };
  let inFlight = 0;
  new Gauge({
    name: 'exchange_engine_commands_in_flight',
    help: 'Commands submitted through this process and not yet answered',
    registers,
    collect() {
      this.set(inFlight);
    },
  });
  const writeSeconds = new Histogram({
    name: 'exchange_journal_write_seconds',
    help: 'Seconds of the write of one journal batch',
    buckets: DISK_BUCKETS,
    registers,
  });
  const fsyncSeconds = new Histogram({
    name: 'exchange_journal_fsync_seconds',
    help: 'Seconds of the fdatasync of one journal batch',
    buckets: DISK_BUCKETS,
    registers,
  });
  const batchRecords = new Histogram({
    name: 'exchange_journal_batch_records',
    help: 'Records per journal batch (group commit: one fdatasync serves them all)',
    buckets: BATCH_BUCKETS,
    registers,
  });
  const journalBytes = new Counter({ name: 'exchange_journal_bytes_total', help: 'Bytes written to the journal', registers });

  // Scrape-time gauges over the sources given to watchHost / watchWs (0 until one is given; a later call replaces it).
  let hostSource: HostSource | undefined;
  let hostLag: () => number = () => 0;
  let wsRead: () => WsSource | undefined = () => undefined;
  new Gauge({
    name: 'exchange_engine_queue_depth',
    help: 'Commands waiting for the next journal batch',
    registers,
    collect() {
      this.set(hostSource?.stats.queueDepth ?? 0);
    },
  });
  new Gauge({
    name: 'exchange_engine_last_seq',
    help: 'Sequence number of the last applied command',
    registers,
    collect() {
      this.set(hostSource?.stats.lastSeq ?? 0);
    },
  });
  new Gauge({
    name: 'exchange_projector_lag_events',
    help: 'Events applied by the engine and not yet written to the database',
    registers,
    collect() {
      this.set(hostSource?.stats.projectionBacklog ?? 0);
    },
  });
  new Gauge({
    name: 'exchange_projector_lag_seconds',
    help: 'How long events applied now wait for the database (probe of the projector)',
    registers,
    collect() {
      this.set(hostLag());
    },
  });
  /**
   * The disk gauges, registered once a host with a local data directory is watched (a process without one shows none:
   * a free space of 0 would fire the alert). A failed read shows the last good one (a missing sample would silence the
   * alert, a 0 would fire it falsely).
   */
  let diskGauges = false;
  const registerDiskGauges = (): void => {
    if (diskGauges) return;
    diskGauges = true;
    const disk = sharedRead(() => hostSource?.diskUsage?.());
    new Gauge({
      name: 'exchange_data_dir_bytes',
      help: 'Bytes of the data directory by part: journal, journal_archive (JOURNAL_ARCHIVE_DIR), snapshots',
      labelNames: ['part'],
      registers,
      async collect() {
        this.reset();
        const u = await disk();
        if (!u) return;
        this.set({ part: 'journal' }, u.journalBytes);
        this.set({ part: 'journal_archive' }, u.archiveBytes);
        this.set({ part: 'snapshots' }, u.snapshotsBytes);
      },
    });
    fieldGauges(registers, disk, [
      ['exchange_data_dir_free_bytes', "Bytes available on the data directory's file system", (u) => u.freeBytes],
      ['exchange_data_dir_fs_size_bytes', "Size of the data directory's file system in bytes", (u) => u.fsSizeBytes],
      ['exchange_disk_free_alert_bytes', 'DISK_FREE_ALERT_BYTES: alert when exchange_data_dir_free_bytes is below it', (u) => u.alertBytes],
    ]);
  };
  new Counter({
    name: 'exchange_journal_segments_pruned_total',
    help: 'Journal segments moved to the archive (action="archive") or deleted (action="delete") by JOURNAL_RETENTION since start',
    labelNames: ['action'],
    registers,
    collect() {
      this.reset();
      const st = hostSource?.stats;
      if (st?.segmentsArchived !== undefined) this.inc({ action: 'archive' }, st.segmentsArchived);
      if (st?.segmentsDeleted !== undefined) this.inc({ action: 'delete' }, st.segmentsDeleted);
    },
  });
  // The database worker is a V8 isolate of its own: the process's heap metrics do not include it, nor PGlite's memory.
  // Its gauges are registered once a worker is watched (a process without one shows none, rather than zeros).
  let dbMemory: (() => Promise<DbWorkerMemory>) | undefined;
  let dbMemoryGauges = false;
  const registerDbMemoryGauges = (pglite: boolean): void => {
    if (dbMemoryGauges) return;
    dbMemoryGauges = true;
    fieldGauges(
      registers,
      sharedRead(() => dbMemory?.()),
      [
        ['exchange_db_worker_heap_used_bytes', "Bytes of the database worker thread's V8 heap in use", (m) => m.heapUsedBytes],
        ['exchange_db_worker_heap_total_bytes', "Bytes of the database worker thread's V8 heap reserved", (m) => m.heapTotalBytes],
        ...(pglite
          ? [['exchange_pglite_memory_bytes', "Bytes of PGlite's WebAssembly memory (it grows, never shrinks)", (m: DbWorkerMemory) => m.wasmBytes] as const]
          : []),
      ],
    );
  };
  new Gauge({
    name: 'exchange_ws_sockets',
    help: 'Connected WebSocket sockets',
    registers,
    collect() {
      this.set(wsRead()?.sockets ?? 0);
    },
  });
  new Gauge({
    name: 'exchange_ws_subscribers',
    help: 'WebSocket subscriptions per channel (private: authenticated sockets)',
    labelNames: ['channel'],
    registers,
    collect() {
      this.reset();
      for (const [channel, n] of Object.entries(wsRead()?.subscribers ?? {})) this.set({ channel }, n);
    },
  });
  new Gauge({
    name: 'exchange_ws_send_backlog_bytes',
    help: 'Bytes queued on all WebSocket sockets and not yet written (sum of bufferedAmount)',
    registers,
    collect() {
      this.set(wsRead()?.bufferedBytes ?? 0);
    },
  });
  new Counter({
    name: 'exchange_ws_slow_closed_total',
    help: 'Sockets closed as slow consumers (1013)',
    registers,
    collect() {
      this.reset();
      this.inc(wsRead()?.closedSlow ?? 0);
    },
  });
  const security = new Counter({
    name: 'exchange_security_events_total',
    help: 'Authentication and authorization failures, lockouts, rate-limit refusals and bans, by kind and error code',
    labelNames: ['kind', 'code'],
    registers,
  });
  const retentionRows = new Counter({
    name: 'exchange_retention_deleted_rows_total',
    help: 'Database rows the retention job deleted, by rule (table, and kind of row where a table has several rules)',
    labelNames: ['rule'],
    registers,
  });
  new Counter({
    name: 'exchange_ws_skipped_pushes_total',
    help: 'Public pushes skipped for sockets over the send backlog limit',
    registers,
    collect() {
      this.reset();
      this.inc(wsRead()?.skippedPushes ?? 0);
    },
  });

  const metrics: ProcessMetrics = {
    registry,
    contentType: registry.contentType,
    journalObserver: {
      appended(records, bytes, write, fsync) {
        writeSeconds.observe(write);
        fsyncSeconds.observe(fsync);
        batchRecords.observe(records);
        journalBytes.inc(bytes);
      },
    },
    instrumentSubmit(port) {
      const submit = port.submit.bind(port);
      port.submit = (cmd: CommandInput): Promise<CommandResult> => {
        const started = performance.now();
        inFlight++;
        return submit(cmd).then(
          (r) => {
            inFlight--;
            commandDone(cmd.type, r.code, started);
            return r;
          },
          (err: unknown) => {
            inFlight--;
            const c = (err as { code?: unknown } | null)?.code;
            commandDone(cmd.type, typeof c === 'string' ? c : 'error', started);
            throw err;
          },
        );
      };
      return port;
    },
    watchHost(host) {
      hostSource = host;
      if (host.diskUsage) registerDiskGauges();
      hostLag = projectorLagProbe(() => host.projected());
    },
    watchDbMemory(read, pglite) {
      dbMemory = read;
      registerDbMemoryGauges(pglite);
    },
    watchWs(read) {
      wsRead = read;
    },
    observeHttp(method, route, status, seconds) {
      const cls = status < 200 ? '1xx' : status < 300 ? '2xx' : status < 400 ? '3xx' : status < 500 ? '4xx' : '5xx';
      http.observe(`${method} ${cls} ${route}`, () => ({ method, route, status: cls }), seconds);
    },
    securityEvent(kind, code) {
      security.inc({ kind, code });
    },
    retentionDeleted(rule, rows) {
      retentionRows.inc({ rule }, rows);
    },
    text: () => Registry.merge([processRegistry(), registry]).metrics(),
  };
  return metrics;
}
