/**
 * SQL of account security: the security log, the pending Google authenticator secret, attempt counters with
 * their locks, and the last TOTP step used. Times come in from the service (its clock).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { pendingTotpSecrets, securityAttempts, securityEvents, totpUsedSteps } from './security.tables';
import type { InboxService } from '../inbox/inbox.service';

/** A security-log row as stored. */
export type SecurityEventRow = typeof securityEvents.$inferSelect;

/** What the security log needs of the inbox (InboxService): its messages of security-log entries. */
export type SecurityInbox = Pick<InboxService, 'makesSecurityMessage' | 'writeSecurityMessage'>;

/** The security queries over `db`; a log entry's inbox message is written by `inbox` (read when one is written). */
export function createSecurityRepository(db: Db, inbox: () => SecurityInbox) {
  return {
    /**
     * Appends one entry to a user's security log, with its in-app inbox message when its type makes one (password and
     * 2FA changes: the inbox's writeSecurityMessage), in one transaction. A log-in makes one only from a device (user
     * agent) not seen in the user's earlier log-ins, and never the first log-in of an account.
     */
    async insertEvent(row: { userId: bigint; type: string; detail: string; ip: string; userAgent: string; createdAt: Date }): Promise<void> {
      if (!inbox().makesSecurityMessage(row.type)) {
        await db.insert(securityEvents).values(row);
        return;
      }
      await db.transaction(async (tx) => {
        const [ins] = await tx.insert(securityEvents).values(row).returning({ id: securityEvents.id });
        const id = ins!.id;
        if (row.type === 'LOGIN') {
          const earlier = await tx
            .select({ userAgent: securityEvents.userAgent })
            .from(securityEvents)
            .where(and(eq(securityEvents.userId, row.userId), eq(securityEvents.type, 'LOGIN'), sql`${securityEvents.id} < ${id}`));
          if (earlier.length === 0 || earlier.some((r) => r.userAgent === row.userAgent)) return;
        }
        await inbox().writeSecurityMessage(tx as unknown as Db, { ...row, id });
      });
    },

    /** A page of the user's log, newest first, and the total number of entries. */
    async listEvents(userId: bigint, offset: number, limit: number): Promise<{ rows: SecurityEventRow[]; total: number }> {
      const rows = await db.select().from(securityEvents).where(eq(securityEvents.userId, userId)).orderBy(desc(securityEvents.id)).offset(offset).limit(limit);
      const count = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(securityEvents)
        .where(eq(securityEvents.userId, userId));
      return { rows, total: Number(count[0]?.n ?? 0) };
    },

    /** The user's latest entry of `type`, or null. */
    async latestEvent(userId: bigint, type: string): Promise<SecurityEventRow | null> {
      const rows = await db
        .select()
        .from(securityEvents)
        .where(and(eq(securityEvents.userId, userId), eq(securityEvents.type, type)))
        .orderBy(desc(securityEvents.id))
        .limit(1);
      return rows[0] ?? null;
    },

    /** The pending (not yet bound) TOTP secret of a user, sealed, with when it was made; or null. */
    async pendingSecret(userId: bigint): Promise<{ sealedSecret: string; createdAt: Date } | null> {
      const rows = await db.select().from(pendingTotpSecrets).where(eq(pendingTotpSecrets.userId, userId)).limit(1);
      return rows[0] ?? null;
    },

    /** Stores (or replaces) the pending TOTP secret of a user. */
    async putPendingSecret(userId: bigint, sealedSecret: string, createdAt: Date): Promise<void> {
      await db
        .insert(pendingTotpSecrets)
        .values({ userId, sealedSecret, createdAt })
        .onConflictDoUpdate({ target: pendingTotpSecrets.userId, set: { sealedSecret, createdAt } });
    },

    /** Forgets the pending TOTP secret of a user (bound or abandoned). */
    async deletePendingSecret(userId: bigint): Promise<void> {
      await db.delete(pendingTotpSecrets).where(eq(pendingTotpSecrets.userId, userId));
    },

    /** Until when (user, kind) is locked, or null when it is not locked at `now`. */
    async lockedUntil(userId: bigint, kind: string, now: Date): Promise<Date | null> {
      const rows = await db
        .select({ lockedUntil: securityAttempts.lockedUntil })
        .from(securityAttempts)
        .where(and(eq(securityAttempts.userId, userId), eq(securityAttempts.kind, kind)))
        .limit(1);
      const until = rows[0]?.lockedUntil ?? null;
      return until !== null && until.getTime() > now.getTime() ? until : null;
    },

    /**
     * Counts one failure of (user, kind) in one statement: a count whose window started before `windowSince` (or whose
     * lock has passed) starts again at 1; reaching `max` sets `lockedUntil` = `lockUntil`. Returns the new count and
     * the lock (null when not locked). Concurrent failures get distinct counts.
     */
    async addFailure(
      userId: bigint,
      kind: string,
      max: number,
      windowSince: Date,
      now: Date,
      lockUntil: Date,
    ): Promise<{ failures: number; lockedUntil: Date | null }> {
      const restart = sql`(${securityAttempts.windowStart} < ${windowSince.toISOString()}::timestamptz or (${securityAttempts.lockedUntil} is not null and ${securityAttempts.lockedUntil} <= ${now.toISOString()}::timestamptz))`;
      const next = sql`case when ${restart} then 1 else ${securityAttempts.failures} + 1 end`;
      const rows = await db
        .insert(securityAttempts)
        .values({ userId, kind, failures: 1, windowStart: now, lockedUntil: max <= 1 ? lockUntil : null })
        .onConflictDoUpdate({
          target: [securityAttempts.userId, securityAttempts.kind],
          set: {
            failures: next,
            windowStart: sql`case when ${restart} then ${now.toISOString()}::timestamptz else ${securityAttempts.windowStart} end`,
            lockedUntil: sql`case when ${next} >= ${max} then ${lockUntil.toISOString()}::timestamptz when ${restart} then null else ${securityAttempts.lockedUntil} end`,
          },
        })
        .returning({ failures: securityAttempts.failures, lockedUntil: securityAttempts.lockedUntil });
      const r = rows[0]!;
      return { failures: r.failures, lockedUntil: r.lockedUntil };
    },

    /** Forgets the failures of (user, kind) after a success. */
    async clearFailures(userId: bigint, kind: string): Promise<void> {
      await db.delete(securityAttempts).where(and(eq(securityAttempts.userId, userId), eq(securityAttempts.kind, kind)));
    },

    /**
     * Claims TOTP time step `step` for the user: true when it is later than every step claimed before (the code was
     * not used yet), false otherwise. One statement, so two requests with one code cannot both succeed.
     */
    async claimStep(userId: bigint, step: number): Promise<boolean> {
      const rows = await db
        .insert(totpUsedSteps)
        .values({ userId, lastStep: step })
        .onConflictDoUpdate({ target: totpUsedSteps.userId, set: { lastStep: step }, setWhere: sql`${totpUsedSteps.lastStep} < ${step}` })
        .returning({ lastStep: totpUsedSteps.lastStep });
      return rows.length > 0;
    },

    /** The last TOTP step claimed by the user, or -1. */
    async lastStep(userId: bigint): Promise<number> {
      const rows = await db.select({ lastStep: totpUsedSteps.lastStep }).from(totpUsedSteps).where(eq(totpUsedSteps.userId, userId)).limit(1);
      return rows[0]?.lastStep ?? -1;
    },
  };
}

/** The security repository's type. */
export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
