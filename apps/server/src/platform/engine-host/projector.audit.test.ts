/**
 * Proves that an operator's audit record carried by an updateUser command (`audit`, the console's freeze and KYC
 * decisions) is projected with the change: the audit row is in the same projection write as the users row, keyed by
 * the command's journal position; a journal replayed into a lost (empty) projection writes the same row again, once;
 * and a command without `audit` writes none. Runs on the embedded host over MemoryFs and MemoryProjectionStore.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createEngineHost } from './engine-host';
import { PROJECTIONS } from '../../main/domains';
import { MemoryFs } from './memory-fs';
import { MemoryProjectionStore } from '../db/projection-store';
import { AUDIT_TABLE, auditRow } from './projection';
import { USERS_TABLE } from '../../domains/member/member.projection';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

function open(fs: MemoryFs, store: MemoryProjectionStore) {
  let t = 1_800_000_000_000;
  return createEngineHost({
    projections: PROJECTIONS,
    config: { dataDir: '/data', snapshotEvery: 0 },
    fs,
    store,
    log,
    now: () => t++,
    newJournalId: () => 'audit-journal',
  });
}

const AUDIT = {
  operatorId: '7',
  operatorEmail: 'c@ops.test',
  action: 'user_freeze',
  before: '{"frozen":false}',
  after: '{"frozen":true,"reason":"r"}',
  ip: '10.0.0.1',
  userAgent: 'UA',
};

/** The audit rows of `store` by key. */
const audits = (store: MemoryProjectionStore) => store.rows<NonNullable<typeof AUDIT_TABLE.row>>(AUDIT_TABLE.rule.table);

describe('projector: audit records of updateUser', () => {
  it('are written with the projection of the change, once per journal position, and again after a lost projection', async () => {
    const fs = new MemoryFs();
    const store = new MemoryProjectionStore();
    const host = await open(fs, store);
    const reg = await host.submit({
      type: 'registerUser',
      account: 'mail:a@b.c',
      uniqueKeys: [],
      profile: { uuid: '12345678', passwordHash: 'x', welCode: 'W' },
    });
    const userId = reg.userId!;
    await host.submit({ type: 'updateUser', userId, profile: { nickName: 'plain' } });
    await host.submit({ type: 'updateUser', userId, profile: { frozen: '1' }, audit: AUDIT });
    await host.projected();
    expect(store.rows<NonNullable<typeof USERS_TABLE.row>>(USERS_TABLE.rule.table).get(userId)?.nickName).toBe('plain');
    expect([...audits(store).values()]).toHaveLength(1);
    const row = [...audits(store).values()][0]!;
    expect(row).toMatchObject({
      operatorId: 7n,
      operatorEmail: 'c@ops.test',
      action: 'user_freeze',
      targetUserId: BigInt(userId),
      before: { frozen: false },
      after: { frozen: true, reason: 'r' },
      ip: '10.0.0.1',
      userAgent: 'UA',
    });
    expect(row.engineSeq).toBeGreaterThan(0);
    await host.close();

    // The database is lost: replaying the journal writes the same audit row (same journal position), once.
    const fresh = new MemoryProjectionStore();
    const again = await open(fs, fresh);
    await again.projected();
    expect([...audits(fresh).values()]).toEqual([row]);
    await again.close();
  });

  it('maps a record defensively: non-numeric ids to null, JSON that does not parse kept as text', () => {
    const r = auditRow('mm-bot', { operatorId: 'x', action: 'a', before: 'not json', after: '' }, 5, 1_000);
    expect(r).toMatchObject({ operatorId: null, targetUserId: null, before: { text: 'not json' }, after: null, engineSeq: 5, operatorEmail: '', ip: '' });
    expect(r.at).toEqual(new Date(1_000));
  });
});
