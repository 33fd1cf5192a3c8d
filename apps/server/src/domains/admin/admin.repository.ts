/**
 * SQL of the operator console: operators, their sessions and failed logins, the audit log (insert and read only:
 * nothing here updates or deletes an audit row), and the reads of the member tables the console shows (a user's
 * sessions, users by phone). Every write of an operator action and its audit row is one transaction. Times come in
 * from the service's clock.
 */
import { and, count, desc, eq, gte, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { auditLog } from '../../platform/db/schema/audit';
import { operatorLoginFailures, operatorSessions, operators } from './admin.tables';
import { sessions, users } from '../member/member.tables';

/** An operator row. */
export type OperatorRow = typeof operators.$inferSelect;
/** An audit row to insert (id assigned by the database). */
export type AuditInsert = typeof auditLog.$inferInsert;
/** An audit row as read. */
export type AuditRow = typeof auditLog.$inferSelect;

/** Filter of the audit log view. */
export interface AuditFilter {
  operatorId?: bigint;
  action?: string;
  targetUserId?: bigint;
  from?: Date;
  to?: Date;
  offset: number;
  limit: number;
}

/** The console's queries over `db`. */
export function createAdminRepository(db: Db) {
  return {
    /** The operator with this (lower-cased) e-mail, or null. */
    async operatorByEmail(email: string): Promise<OperatorRow | null> {
      return (await db.select().from(operators).where(eq(operators.email, email)).limit(1))[0] ?? null;
    },

    /** The operator with this id, or null. */
    async operatorById(id: bigint): Promise<OperatorRow | null> {
      return (await db.select().from(operators).where(eq(operators.id, id)).limit(1))[0] ?? null;
    },

    /** Every operator, oldest first. */
    async listOperators(): Promise<OperatorRow[]> {
      return db.select().from(operators).orderBy(operators.id);
    },

    /**
     * Inserts an operator and, when `audit` is given, its audit row (built from the new id) in one transaction; null
     * when the e-mail is taken.
     */
    async insertOperator(row: typeof operators.$inferInsert, audit?: (op: OperatorRow) => AuditInsert): Promise<OperatorRow | null> {
      return db.transaction(async (tx) => {
        const inserted = await tx.insert(operators).values(row).onConflictDoNothing({ target: operators.email }).returning();
        const op = inserted[0];
        if (!op) return null;
        if (audit) await tx.insert(auditLog).values(audit(op));
        return op;
      });
    },

    /**
     * Sets an operator's `disabled` flag (revoking every session when disabling) or TOTP secret, with its audit row,
     * in one transaction. False when the operator does not exist.
     */
    async updateOperator(
      id: bigint,
      set: { disabled?: boolean; totpSecret?: string; lastTotpStep?: null },
      audit: AuditInsert,
      now: Date,
      revokeSessions: boolean,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const updated = await tx.update(operators).set(set).where(eq(operators.id, id)).returning({ id: operators.id });
        if (updated.length === 0) return false;
        if (revokeSessions)
          await tx
            .update(operatorSessions)
            .set({ revokedAt: now })
            .where(and(eq(operatorSessions.operatorId, id), isNull(operatorSessions.revokedAt)));
        await tx.insert(auditLog).values(audit);
        return true;
      });
    },

    /**
     * Takes TOTP step `step` for the operator when it is above the last one taken (one conditional UPDATE: of two
     * logins with the same code, on any number of processes, one wins). False when the step was used already.
     */
    async takeTotpStep(id: bigint, step: number): Promise<boolean> {
      const r = await db
        .update(operators)
        .set({ lastTotpStep: step })
        .where(and(eq(operators.id, id), or(isNull(operators.lastTotpStep), lt(operators.lastTotpStep, step))))
        .returning({ id: operators.id });
      return r.length > 0;
    },

    /** Failed logins since `since` of this e-mail and from this IP. */
    async loginFailures(email: string, ip: string, since: Date): Promise<{ byEmail: number; byIp: number }> {
      const [e] = await db
        .select({ n: count() })
        .from(operatorLoginFailures)
        .where(and(eq(operatorLoginFailures.email, email), gte(operatorLoginFailures.at, since)));
      const [i] = await db
        .select({ n: count() })
        .from(operatorLoginFailures)
        .where(and(eq(operatorLoginFailures.ip, ip), gte(operatorLoginFailures.at, since)));
      return { byEmail: Number(e?.n ?? 0), byIp: Number(i?.n ?? 0) };
    },

    /** Records a failed login and its audit row in one transaction; deletes failure rows older than `purgeBefore`. */
    async addLoginFailure(email: string, ip: string, at: Date, audit: AuditInsert, purgeBefore: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(operatorLoginFailures).values({ email, ip, at });
        await tx.insert(auditLog).values(audit);
        await tx.delete(operatorLoginFailures).where(lt(operatorLoginFailures.at, purgeBefore));
      });
    },

    /** Starts a session and writes the login's audit row in one transaction; clears the e-mail's failures. */
    async insertSession(tokenHash: string, operatorId: bigint, email: string, at: Date, audit: AuditInsert): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(operatorSessions).values({ tokenHash, operatorId, createdAt: at, lastSeenAt: at });
        await tx.delete(operatorLoginFailures).where(eq(operatorLoginFailures.email, email));
        await tx.insert(auditLog).values(audit);
      });
    },

    /** The unrevoked session of this token hash with its operator, or null. */
    async liveSession(tokenHash: string): Promise<{ id: bigint; createdAt: Date; lastSeenAt: Date; operator: OperatorRow } | null> {
      const rows = await db
        .select({ id: operatorSessions.id, createdAt: operatorSessions.createdAt, lastSeenAt: operatorSessions.lastSeenAt, operator: operators })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(and(eq(operatorSessions.tokenHash, tokenHash), isNull(operatorSessions.revokedAt)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Moves a session's last use to `at`. */
    async touchSession(id: bigint, at: Date): Promise<void> {
      await db.update(operatorSessions).set({ lastSeenAt: at }).where(eq(operatorSessions.id, id));
    },

    /** Revokes a session and writes the logout's audit row in one transaction (no row when it was revoked already). */
    async revokeSession(id: bigint, at: Date, audit: AuditInsert): Promise<void> {
      await db.transaction(async (tx) => {
        const r = await tx
          .update(operatorSessions)
          .set({ revokedAt: at })
          .where(and(eq(operatorSessions.id, id), isNull(operatorSessions.revokedAt)))
          .returning({ id: operatorSessions.id });
        if (r.length > 0) await tx.insert(auditLog).values(audit);
      });
    },

    /** Appends one audit row (an action with no other database effect, e.g. viewing a KYC image). */
    async appendAudit(row: AuditInsert): Promise<void> {
      await db.insert(auditLog).values(row);
    },

    /** One page of the audit log, newest first, and the number of rows matching the filter. */
    async listAudit(f: AuditFilter): Promise<{ total: number; rows: AuditRow[] }> {
      const conds: SQL[] = [];
      if (f.operatorId !== undefined) conds.push(eq(auditLog.operatorId, f.operatorId));
      if (f.action !== undefined) conds.push(eq(auditLog.action, f.action));
      if (f.targetUserId !== undefined) conds.push(eq(auditLog.targetUserId, f.targetUserId));
      if (f.from !== undefined) conds.push(gte(auditLog.at, f.from));
      if (f.to !== undefined) conds.push(lt(auditLog.at, f.to));
      const where = conds.length > 0 ? and(...conds) : undefined;
      const [n] = await db.select({ n: count() }).from(auditLog).where(where);
      const rows = await db.select().from(auditLog).where(where).orderBy(desc(auditLog.at), desc(auditLog.id)).offset(f.offset).limit(f.limit);
      return { total: Number(n?.n ?? 0), rows };
    },

    /** The user ids whose phone is `digits` (any area code), at most 20. */
    async usersByPhone(digits: string): Promise<bigint[]> {
      return (await db.select({ id: users.id }).from(users).where(eq(users.phone, digits)).limit(20)).map((r) => r.id);
    },

    /** A user's registration time, or null when not projected yet. */
    async userCreatedAt(id: bigint): Promise<Date | null> {
      return (await db.select({ at: users.createdAt }).from(users).where(eq(users.id, id)).limit(1))[0]?.at ?? null;
    },

    /** A user's latest sessions (at most 50), newest first. */
    async userSessions(
      id: bigint,
    ): Promise<Array<{ id: bigint; createdAt: Date; expiresAt: Date; revokedAt: Date | null; lastSeenAt: Date | null; ip: string; userAgent: string }>> {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
          lastSeenAt: sessions.lastSeenAt,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(eq(sessions.userId, id))
        .orderBy(desc(sessions.id))
        .limit(50);
    },

    /** Count of audit rows (tests). */
    async auditCount(): Promise<number> {
      const [n] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
      return Number(n?.n ?? 0);
    },
  };
}

/** The console's repository. */
export type AdminRepository = ReturnType<typeof createAdminRepository>;
