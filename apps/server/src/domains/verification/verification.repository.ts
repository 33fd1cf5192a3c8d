/**
 * SQL of the captcha and verification-code area (tables captcha_challenges and verification_codes).
 * Claims that must happen once (answering a puzzle, using a pass, consuming a code) are single conditional
 * UPDATE ... RETURNING statements, so concurrent requests cannot both win.
 */
import { and, count, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { captchaChallenges, verificationCodes } from './verification.tables';

/** A stored verification code row. */
export type CodeRow = typeof verificationCodes.$inferSelect;

/** The captcha and code queries over `db`. */
export function createVerificationRepository(db: Db) {
  return {
    /** Stores a new puzzle challenge: its answer (answerX, answerY) and the row the piece starts on. */
    async insertChallenge(row: { challenge: string; randomCode: string; answerX: number; answerY: number; startY: number; expiresAt: Date }): Promise<void> {
      await db.insert(captchaChallenges).values(row);
    },

    /** Deletes challenges created before `before` (housekeeping). */
    async purgeChallenges(before: Date): Promise<void> {
      await db.delete(captchaChallenges).where(lt(captchaChallenges.createdAt, before));
    },

    /** Whether a challenge exists at all. */
    async challengeExists(challenge: string): Promise<boolean> {
      const rows = await db.select({ c: captchaChallenges.challenge }).from(captchaChallenges).where(eq(captchaChallenges.challenge, challenge));
      return rows.length > 0;
    },

    /** Marks an unanswered challenge as answered at `now`; its answer, start row and expiry, or null when unknown or answered before. */
    async claimAnswer(challenge: string, now: Date): Promise<{ answerX: number; answerY: number; startY: number; expiresAt: Date } | null> {
      const rows = await db
        .update(captchaChallenges)
        .set({ answeredAt: now })
        .where(and(eq(captchaChallenges.challenge, challenge), isNull(captchaChallenges.answeredAt)))
        .returning({
          answerX: captchaChallenges.answerX,
          answerY: captchaChallenges.answerY,
          startY: captchaChallenges.startY,
          expiresAt: captchaChallenges.expiresAt,
        });
      return rows[0] ?? null;
    },

    /** Records a right answer and the hash of the pass token issued for it. */
    async markPassed(challenge: string, validateHash: string, passExpiresAt: Date): Promise<void> {
      await db.update(captchaChallenges).set({ passed: true, validateHash, passExpiresAt }).where(eq(captchaChallenges.challenge, challenge));
    },

    /** Uses a pass once: true when (challenge, validateHash) was passed, unused and unexpired at `now`. */
    async consumePass(challenge: string, validateHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(captchaChallenges)
        .set({ passUsedAt: now })
        .where(
          and(
            eq(captchaChallenges.challenge, challenge),
            eq(captchaChallenges.validateHash, validateHash),
            eq(captchaChallenges.passed, true),
            isNull(captchaChallenges.passUsedAt),
            gt(captchaChallenges.passExpiresAt, now),
          ),
        )
        .returning({ c: captchaChallenges.challenge });
      return rows.length > 0;
    },

    /** When the newest code for `account` (any type) was created, or null. */
    async lastCodeAt(account: string): Promise<Date | null> {
      const rows = await db
        .select({ at: verificationCodes.createdAt })
        .from(verificationCodes)
        .where(eq(verificationCodes.account, account))
        .orderBy(desc(verificationCodes.createdAt))
        .limit(1);
      return rows[0]?.at ?? null;
    },

    /** How many codes were requested from `ip` since `since`. */
    async countCodesByIp(ip: string, since: Date): Promise<number> {
      const rows = await db
        .select({ n: count() })
        .from(verificationCodes)
        .where(and(eq(verificationCodes.ip, ip), gte(verificationCodes.createdAt, since)));
      return Number(rows[0]?.n ?? 0);
    },

    /** Retires every unconsumed code of (account, type) and stores a new one; returns its id. */
    async replaceCode(row: { account: string; type: string; salt: string; codeHash: string; ip: string; createdAt: Date; expiresAt: Date }): Promise<bigint> {
      return db.transaction(async (tx) => {
        await tx
          .update(verificationCodes)
          .set({ consumedAt: row.createdAt })
          .where(and(eq(verificationCodes.account, row.account), eq(verificationCodes.type, row.type), isNull(verificationCodes.consumedAt)));
        const ins = await tx.insert(verificationCodes).values(row).returning({ id: verificationCodes.id });
        return ins[0]!.id;
      });
    },

    /** The newest unconsumed, unexpired code of (account, type) at `now`, or null. */
    async liveCode(account: string, type: string, now: Date): Promise<CodeRow | null> {
      const rows = await db
        .select()
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.account, account),
            eq(verificationCodes.type, type),
            isNull(verificationCodes.consumedAt),
            gt(verificationCodes.expiresAt, now),
          ),
        )
        .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Counts a wrong guess against a code. */
    async addAttempt(id: bigint): Promise<void> {
      await db
        .update(verificationCodes)
        .set({ attempts: sql`${verificationCodes.attempts} + 1` })
        .where(eq(verificationCodes.id, id));
    },

    /** Consumes an unconsumed code at `now`; false when another request consumed it first. */
    async consumeCode(id: bigint, now: Date): Promise<boolean> {
      const rows = await db
        .update(verificationCodes)
        .set({ consumedAt: now })
        .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.consumedAt)))
        .returning({ id: verificationCodes.id });
      return rows.length > 0;
    },
  };
}

/** The captcha and code repository. */
export type VerificationRepository = ReturnType<typeof createVerificationRepository>;
