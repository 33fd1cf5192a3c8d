/**
 * The journal of the scale-out mode on NATS JetStream (ARCHITECTURE.md section 4): one stream per engine (market
 * group), file storage, every message one command (serializeCommand's JSON), the stream sequence number = the
 * command's sequence number. Snapshots of the engine lie beside it in a JetStream object store, one object `engine`
 * whose content is a SnapshotFile (with the stream sequence it includes).
 *
 * Names (prefix P, e.g. EXCH): stream `P`, subject `P.cmd`, object store `P-snap`. The stream dedupes a publish by
 * its `Nats-Msg-Id` for `DUPLICATE_WINDOW_MS`, so a retried publish (the ack was lost) is stored once.
 *
 * Its limits (`streamLimits`, set by the engine process from NATS_STREAM_* and SNAPSHOT_EVERY; none when a gateway
 * creates it first) discard the oldest messages: the engine and every gateway start from the stored snapshot and read
 * the stream after it, so the stream must keep at least every message after the snapshot; it keeps a multiple of
 * SNAPSHOT_EVERY messages. A reader whose start lies before the stream's first message is refused (`follow`), never
 * fed a stream with a hole. With limits, a lost database cannot be rebuilt from the stream's start: it is restored
 * from a backup, and the engine process says so at start.
 */
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { Objm, type ObjectStore } from '@nats-io/obj';
import type { SnapshotFile } from '../engine-host/snapshot-store';

/** How long JetStream remembers a message id to drop a repeated publish (ms). */
export const DUPLICATE_WINDOW_MS = 120_000;

/** The limits of the journal stream (JetStream's stream configuration fields; -1 or 0 = none). */
export interface StreamLimits {
  /** Messages kept at most (-1: no limit). */
  max_msgs: number;
  /** Bytes kept at most (-1: no limit). */
  max_bytes: number;
  /** Age of the oldest message kept, in nanoseconds (0: no limit). */
  max_age: number;
  /** The oldest messages make room (never a refused publish: the engine would stop). */
  discard: DiscardPolicy;
}

/**
 * The journal stream's limits from the configuration: NATS_STREAM_KEEP_SNAPSHOTS x SNAPSHOT_EVERY messages (no limit
 * when either is 0: without snapshots nothing may be discarded), NATS_STREAM_MAX_BYTES bytes and
 * NATS_STREAM_MAX_AGE_HOURS hours (0: none), the oldest discarded first. Throws when a message limit would keep less
 * than two snapshot intervals (the stored snapshot lags the newest one by up to an interval while it is written).
 */
export function streamLimits(c: {
  snapshotEvery: number;
  natsStreamKeepSnapshots: number;
  natsStreamMaxBytes: number;
  natsStreamMaxAgeHours: number;
}): StreamLimits {
  const limited = c.natsStreamKeepSnapshots > 0 && c.snapshotEvery > 0;
  if (limited && c.natsStreamKeepSnapshots < 2)
    throw new Error(`NATS_STREAM_KEEP_SNAPSHOTS must be 0 (no limit) or at least 2, got ${c.natsStreamKeepSnapshots}`);
  return {
    max_msgs: limited ? c.natsStreamKeepSnapshots * c.snapshotEvery : -1,
    max_bytes: c.natsStreamMaxBytes > 0 ? c.natsStreamMaxBytes : -1,
    max_age: c.natsStreamMaxAgeHours > 0 ? nanos(c.natsStreamMaxAgeHours * 3_600_000) : 0,
    discard: DiscardPolicy.Old,
  };
}

/** Whether the stream holds limits at all (a stream without any keeps everything, and a lost database can be rebuilt from it). */
export function hasLimits(l: Pick<StreamLimits, 'max_msgs' | 'max_bytes' | 'max_age'>): boolean {
  return l.max_msgs > 0 || l.max_bytes > 0 || l.max_age > 0;
}

/** The names derived from a prefix. */
export interface NatsNames {
  stream: string;
  subject: string;
  snapshotBucket: string;
}

/** Stream, subject and bucket names for `prefix` (letters, digits, '-' and '_' only). */
export function natsNames(prefix: string): NatsNames {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(prefix)) throw new Error(`NATS_PREFIX must be 1-64 letters, digits, '-' or '_', got "${prefix}"`);
  return { stream: prefix, subject: `${prefix}.cmd`, snapshotBucket: `${prefix}-snap` };
}

/** One delivered command message. */
export interface StreamMessage {
  seq: number;
  data: Uint8Array;
  /** The publisher's Nats-Msg-Id, if any. */
  msgId: string | undefined;
}

/** A connection to the journal stream and its snapshot store. */
export interface NatsJournal {
  readonly nc: NatsConnection;
  readonly names: NatsNames;
  /** Publishes a command; resolves with its stream sequence once JetStream has stored it (the publish ack). */
  publish(body: Uint8Array, msgId: string, expectLastSeq?: number): Promise<{ seq: number; duplicate: boolean }>;
  /** Sequence number of the last message in the stream (0 = empty) and of the first one. */
  bounds(): Promise<{ first: number; last: number }>;
  /** The stream's limits now (what `openNatsJournal` set, or the stream's own). */
  limits(): Promise<StreamLimits>;
  /**
   * Delivers every message from `fromSeq` on, in order, to `onMessage` (an ordered consumer: gaps are refilled by
   * the client). `onMessage` may return a promise to hold delivery back (backpressure). Returns a stop function.
   * Throws when the stream's first message is after `fromSeq` (the messages between were discarded by its limits).
   */
  follow(fromSeq: number, onMessage: (m: StreamMessage) => void | Promise<void>, onError: (err: unknown) => void): Promise<() => Promise<void>>;
  /** The stored snapshot, or null. */
  readSnapshot(): Promise<SnapshotFile | null>;
  /** Replaces the stored snapshot. */
  writeSnapshot(snap: SnapshotFile): Promise<void>;
  /** Deletes the stream and the snapshot store (tests). */
  destroy(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to `url` and creates the stream and the object store when missing (idempotent; safe from any process). */
/**
 * The warning for a stream whose acknowledged messages may be lost with one node (docs/deploy.md, "When an
 * acknowledged command is on disk"): fewer than 3 replicas, where a node fsyncs its store only every `sync_interval`
 * (2 minutes by default) unless it is set to `always` (nats-server 2.10+; the client cannot read that setting).
 * Null with 3 replicas or more.
 */
export function durabilityWarning(replicas: number, serverVersion: string): string | null {
  if (replicas >= 3) return null;
  return (
    `the journal stream has ${replicas} replica${replicas === 1 ? '' : 's'} on nats-server ${serverVersion}: an acknowledged command survives a power loss ` +
    'only if every node sets jetstream { sync_interval: always } (nats-server 2.10 or later); otherwise run NATS_REPLICAS=3 across failure domains (docs/deploy.md)'
  );
}

/** Connects to `url` (comma-separated servers), retrying every 500 ms until connected or `withinMs` passed. */
async function connectWithin(url: string, name: string, withinMs: number): Promise<NatsConnection> {
  const end = Date.now() + withinMs;
  for (;;) {
    try {
      return await connect({ servers: url.split(','), name, maxReconnectAttempts: -1 });
    } catch (err) {
      if (Date.now() + 500 > end) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Opens the journal stream `<prefix>` on the NATS servers of `url` (created with `replicas` when missing, with its
 * snapshot object store), waiting up to `connectTimeoutMs` (default 120 s) for a server to accept the connection.
 * `warn` hears the durability warning of a stream under 3 replicas (durabilityWarning). `limits` (the engine
 * process's, streamLimits) are set on a new stream and put on an existing one whose limits differ; without them an
 * existing stream is left as it is and a new one keeps everything. Throws the last connection error once the wait is
 * over.
 */
export async function openNatsJournal(
  url: string,
  prefix: string,
  opts: { name?: string; replicas?: number; warn?: (msg: string) => void; connectTimeoutMs?: number; limits?: StreamLimits } = {},
): Promise<NatsJournal> {
  const names = natsNames(prefix);
  // A process started while NATS restarts waits for it instead of exiting; `connectTimeoutMs` bounds that wait.
  const nc = await connectWithin(url, opts.name ?? 'exchange', opts.connectTimeoutMs ?? 120_000);
  const jsm: JetStreamManager = await jetstreamManager(nc);
  const replicas = opts.replicas ?? 1;
  try {
    await jsm.streams.info(names.stream);
  } catch {
    try {
      await jsm.streams.add({
        name: names.stream,
        subjects: [names.subject],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.New,
        num_replicas: replicas,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
        max_msgs: -1,
        max_bytes: -1,
        max_age: 0,
        ...opts.limits,
      });
    } catch (err) {
      // Another process created it meanwhile.
      await jsm.streams.info(names.stream).catch(() => {
        throw err;
      });
    }
  }
  if (opts.limits !== undefined) {
    const { config } = await jsm.streams.info(names.stream);
    const l = opts.limits;
    if (config.max_msgs !== l.max_msgs || config.max_bytes !== l.max_bytes || config.max_age !== l.max_age || config.discard !== l.discard) {
      await jsm.streams.update(names.stream, { ...config, ...l });
    }
  }
  if (opts.warn !== undefined) {
    const warning = durabilityWarning((await jsm.streams.info(names.stream)).config.num_replicas, nc.info?.version ?? 'unknown');
    if (warning !== null) opts.warn(warning);
  }
  const js: JetStreamClient = jetstream(nc);
  const objm = new Objm(nc);
  const store: ObjectStore = await objm.create(names.snapshotBucket, { storage: StorageType.File, replicas });

  return {
    nc,
    names,
    async publish(body, msgId, expectLastSeq) {
      const ack = await js.publish(names.subject, body, { msgID: msgId, ...(expectLastSeq !== undefined ? { expect: { lastSequence: expectLastSeq } } : {}) });
      return { seq: ack.seq, duplicate: ack.duplicate };
    },
    async bounds() {
      const info = await jsm.streams.info(names.stream);
      return { first: info.state.first_seq, last: info.state.last_seq };
    },
    async limits() {
      const { config } = await jsm.streams.info(names.stream);
      return { max_msgs: config.max_msgs, max_bytes: config.max_bytes, max_age: config.max_age, discard: config.discard };
    },
    async follow(fromSeq, onMessage, onError) {
      const first = (await jsm.streams.info(names.stream)).state.first_seq;
      if (first > Math.max(1, fromSeq)) {
        throw new Error(
          `the stream ${names.stream} starts at ${first}, after ${fromSeq}: the messages between were discarded by its limits (NATS_STREAM_*), so a reader cannot start there; start from a newer snapshot`,
        );
      }
      const consumer = await js.consumers.get(names.stream, { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, fromSeq) });
      const messages: ConsumerMessages = await consumer.consume({ max_messages: 4096 });
      let stopped = false;
      const done = (async () => {
        try {
          for await (const m of messages) {
            if (stopped) break;
            const r = onMessage({ seq: m.seq, data: m.data, msgId: m.headers?.get('Nats-Msg-Id') || undefined });
            if (r) await r;
          }
        } catch (err) {
          if (!stopped) onError(err);
        }
      })();
      return async () => {
        stopped = true;
        await messages.close().catch(() => undefined);
        await done;
      };
    },
    async readSnapshot() {
      const blob = await store.getBlob('engine');
      if (blob === null) return null;
      return JSON.parse(Buffer.from(blob).toString('utf8')) as SnapshotFile;
    },
    async writeSnapshot(snap) {
      await store.putBlob({ name: 'engine', description: `seq ${snap.seq}` }, Buffer.from(JSON.stringify(snap), 'utf8'));
    },
    async destroy() {
      await store.destroy().catch(() => undefined);
      await jsm.streams.delete(names.stream).catch(() => undefined);
    },
    async close() {
      await nc.drain().catch(() => nc.close());
    },
  };
}
