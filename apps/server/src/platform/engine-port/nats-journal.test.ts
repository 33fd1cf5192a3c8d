/**
 * The scale-out journal (nats-journal.ts): the durability warning (under 3 replicas only); the stream's limits from
 * the configuration (streamLimits: a multiple of SNAPSHOT_EVERY messages, bytes, age, the oldest discarded); and, on
 * the machine's NATS server (NATS_URL or nats://127.0.0.1:4222; skipped when none answers), a stream opened with
 * limits keeps only its newest messages, an existing stream gets new limits on the next open, a reader starting
 * before the stream's first message is refused, and a gateway's replica still starts: from the stored snapshot.
 */
import net from 'node:net';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { nanos } from '@nats-io/transport-node';
import { DiscardPolicy } from '@nats-io/jetstream';
import { serializeCommand, type Command } from '@exchange/core';
import { durabilityWarning, hasLimits, openNatsJournal, streamLimits, type NatsJournal } from './nats-journal';
import { CommandApplier } from './applier';
import { createNatsEnginePort, ensureGenesis } from './nats-engine-port';
import type { ProjectionStore } from '../db/projection-types';

describe('JetStream durability warning', () => {
  it('warns under 3 replicas, naming the server version and both remedies; none with 3 or more', () => {
    expect(durabilityWarning(1, '2.9.10')).toBe(
      'the journal stream has 1 replica on nats-server 2.9.10: an acknowledged command survives a power loss only if every node sets jetstream { sync_interval: always } (nats-server 2.10 or later); otherwise run NATS_REPLICAS=3 across failure domains (docs/deploy.md)',
    );
    expect(durabilityWarning(2, '2.10.4')).toMatch(/^the journal stream has 2 replicas on nats-server 2\.10\.4:/);
    expect(durabilityWarning(3, '2.10.4')).toBeNull();
    expect(durabilityWarning(5, '2.10.4')).toBeNull();
  });
});

describe('the journal stream limits (streamLimits)', () => {
  it('keeps NATS_STREAM_KEEP_SNAPSHOTS x SNAPSHOT_EVERY messages, bytes and age when set, discarding the oldest; none when 0', () => {
    expect(streamLimits({ snapshotEvery: 50_000, natsStreamKeepSnapshots: 20, natsStreamMaxBytes: 0, natsStreamMaxAgeHours: 0 })).toEqual({
      max_msgs: 1_000_000,
      max_bytes: -1,
      max_age: 0,
      discard: DiscardPolicy.Old,
    });
    expect(streamLimits({ snapshotEvery: 1000, natsStreamKeepSnapshots: 3, natsStreamMaxBytes: 1 << 30, natsStreamMaxAgeHours: 720 })).toEqual({
      max_msgs: 3000,
      max_bytes: 1 << 30,
      max_age: nanos(720 * 3_600_000),
      discard: DiscardPolicy.Old,
    });
    const none = streamLimits({ snapshotEvery: 0, natsStreamKeepSnapshots: 20, natsStreamMaxBytes: 0, natsStreamMaxAgeHours: 0 });
    expect([none.max_msgs, hasLimits(none)]).toEqual([-1, false]);
    expect(hasLimits(streamLimits({ snapshotEvery: 10, natsStreamKeepSnapshots: 0, natsStreamMaxBytes: 0, natsStreamMaxAgeHours: 0 }))).toBe(false);
    expect(() => streamLimits({ snapshotEvery: 10, natsStreamKeepSnapshots: 1, natsStreamMaxBytes: 0, natsStreamMaxAgeHours: 0 })).toThrow(
      /NATS_STREAM_KEEP_SNAPSHOTS must be 0 \(no limit\) or at least 2/,
    );
  });
});

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const natsUp = await new Promise<boolean>((resolve) => {
  const u = new URL(NATS_URL.split(',')[0]!);
  const s = net.connect(Number(u.port || 4222), u.hostname, () => {
    s.end();
    resolve(true);
  });
  s.on('error', () => resolve(false));
});
const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const store: ProjectionStore = { load: async () => ({ journalId: null, cursor: 0 }), write: async () => {} };
/** A command message: a user's registration (any command does; the replica applies it). */
const registration = (i: number) =>
  Buffer.from(serializeCommand({ type: 'registerUser', account: `em:u${i}@limits.test`, uniqueKeys: [], profile: {}, ts: 1000 + i } as Command), 'utf8');

describe.skipIf(!natsUp)('the journal stream with limits, on NATS', () => {
  const prefix = `limits-${process.pid}-${Date.now()}`;
  const opened: NatsJournal[] = [];
  afterAll(async () => {
    await opened[0]?.destroy();
    for (const j of opened) await j.close();
  });

  it('keeps the newest messages only, takes new limits on the next open, refuses a reader before its start, and a replica starts from the snapshot', async () => {
    const limits = streamLimits({ snapshotEvery: 4, natsStreamKeepSnapshots: 3, natsStreamMaxBytes: 0, natsStreamMaxAgeHours: 0 });
    const journal = await openNatsJournal(NATS_URL, prefix, { limits });
    opened.push(journal);
    expect(await journal.limits()).toEqual({ max_msgs: 12, max_bytes: -1, max_age: 0, discard: DiscardPolicy.Old });
    await ensureGenesis(journal, 'j-limits');
    // The engine's snapshot after message 10 (the genesis and 9 registrations), then 10 more messages.
    const applier = new CommandApplier(null);
    applier.apply(1, Buffer.from(serializeCommand({ type: 'genesis', journalId: 'j-limits', ts: 1000 } as Command), 'utf8'));
    for (let i = 2; i <= 20; i++) {
      const body = registration(i);
      expect((await journal.publish(body, `m-${i}`)).seq).toBe(i);
      if (i <= 10) applier.apply(i, body);
    }
    await journal.writeSnapshot(applier.snapshot());
    // 20 messages published, 12 kept: 9 to 20.
    expect(await journal.bounds()).toEqual({ first: 9, last: 20 });

    // A reader from before the first message is refused, naming the hole; one from the snapshot on reads 11 to 20.
    await expect(
      journal.follow(
        5,
        () => {},
        () => {},
      ),
    ).rejects.toThrow(`the stream ${prefix} starts at 9, after 5: the messages between were discarded`);
    const seen: number[] = [];
    const stop = await journal.follow(
      11,
      (m) => void seen.push(m.seq),
      () => {},
    );
    for (let i = 0; i < 100 && seen.length < 10; i++) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(seen).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);

    // A gateway's replica (nats-engine-port.ts) starts from the stored snapshot (10) and catches up to 20.
    const port = await createNatsEnginePort({ natsUrl: NATS_URL, prefix, log, store });
    try {
      expect([port.recovery.snapshotSeq, port.stats.lastSeq]).toEqual([10, 20]);
    } finally {
      await port.close();
    }

    // The engine opens it again with other limits: the stream takes them (and drops to the newest 8).
    const again = await openNatsJournal(NATS_URL, prefix, {
      limits: streamLimits({ snapshotEvery: 4, natsStreamKeepSnapshots: 2, natsStreamMaxBytes: 1_000_000, natsStreamMaxAgeHours: 24 }),
    });
    opened.push(again);
    expect(await again.limits()).toEqual({ max_msgs: 8, max_bytes: 1_000_000, max_age: nanos(24 * 3_600_000), discard: DiscardPolicy.Old });
    expect(await again.bounds()).toEqual({ first: 13, last: 20 });
    // Now the snapshot (10) lies before the stream's start (13): a replica is refused with the reason, never built with a hole.
    await expect(createNatsEnginePort({ natsUrl: NATS_URL, prefix, log, store })).rejects.toThrow(/starts at 13, after 11/);
  });
});
