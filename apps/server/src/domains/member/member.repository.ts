/**
 * SQL of the member area: users, sessions, login failures and favourites. Times come in from the service
 * (its clock), so expiry is decided by one clock whichever database runs.
 */
import { and, asc, desc, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { favorites, loginCounters, loginFailures, sessions, users } from './member.tables';
import { markets } from '../market-data/market-data.tables';
import type { Account } from '../../platform/shared/account';

/** A login counter: an account's attempts ({ account, ip: '' }), an IP's ({ account: '', ip }), or both. */
export interface LoginCounterKey {
  account: string;
  ip: string;
}

/** A user row (the projection of the engine's user registry: written by the engine host's projector only). */
export type UserRow = typeof users.$inferSelect;

/** The member queries over `db`. */
export function createMemberRepository(db: Db) {
  return {
    /** The user owning `a`, or null. */
    async findByAccount(a: Account): Promise<UserRow | null> {
      const where = a.kind === 'email' ? eq(users.mail, a.mail) : and(eq(users.areaCode, a.areaCode), eq(users.phone, a.phone));
      const rows = await db.select().from(users).where(where).limit(1);
      return rows[0] ?? null;
    },

    /** The user with id `id`, or null. */
    async findById(id: bigint): Promise<UserRow | null> {
      const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return rows[0] ?? null;
    },

    /** The user whose invitation code is `welCode`, or null. */
    async findByWelCode(welCode: string): Promise<UserRow | null> {
      const rows = await db.select().from(users).where(eq(users.welCode, welCode)).limit(1);
      return rows[0] ?? null;
    },

    /** Stores a session by the sha256 of its token, with where it was opened (ip, user-agent). */
    async insertSession(row: { tokenHash: string; userId: bigint; createdAt: Date; expiresAt: Date; ip?: string; userAgent?: string }): Promise<void> {
      await db.insert(sessions).values(row);
    },

    /**
     * The owner, expiry, id and last-seen time of the live (unrevoked, unexpired at `now`) session with this token
     * hash, or null. By hash alone, so that one answer "no such session" holds whatever user id a forged token is
     * tried with.
     */
    async liveSession(tokenHash: string, now: Date): Promise<{ userId: bigint; expiresAt: Date; id: bigint; lastSeenAt: Date | null } | null> {
      const rows = await db
        .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, id: sessions.id, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return rows[0] ?? null;
    },

    /** Revokes the session with this token hash; returns its owner's id, or null when no unrevoked session had it. */
    async revokeSession(tokenHash: string, now: Date): Promise<bigint | null> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
        .returning({ userId: sessions.userId });
      return rows[0]?.userId ?? null;
    },

    /** Sets the last-seen time of a session (the caller refreshes it at most once a minute). */
    async touchSession(id: bigint, at: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
    },

    /** The user's live sessions at `now`, newest first (the devices list). */
    async listLiveSessions(
      userId: bigint,
      now: Date,
    ): Promise<Array<{ id: bigint; tokenHash: string; ip: string; userAgent: string; createdAt: Date; lastSeenAt: Date | null }>> {
      return db
        .select({
          id: sessions.id,
          tokenHash: sessions.tokenHash,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.id))
        .limit(100);
    },

    /** Revokes the session `id` if it is `userId`'s and unrevoked; returns its token hash, else null (another user's, unknown, ended). */
    async revokeSessionOf(userId: bigint, id: bigint, now: Date): Promise<string | null> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ tokenHash: sessions.tokenHash });
      return rows[0]?.tokenHash ?? null;
    },

    /** Revokes every session of a user except the one with `keepHash`; returns the token hashes revoked. */
    async revokeOtherSessions(userId: bigint, keepHash: string, now: Date): Promise<string[]> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.tokenHash, keepHash)))
        .returning({ tokenHash: sessions.tokenHash });
      return rows.map((r) => r.tokenHash);
    },

    /** Revokes every session of a user. */
    async revokeAllSessions(userId: bigint, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    /** Records a failed login (the record of failures; the limits are decided on login_counters). */
    async addFailure(account: string, ip: string, at: Date): Promise<void> {
      await db.insert(loginFailures).values({ account, ip, createdAt: at });
    },

    /**
     * Forgets the failed logins of an account (after a success or a password reset): its failure rows, its attempt
     * counter and its per-IP failure counters.
     */
    async clearFailures(account: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.account, account));
      await db.delete(loginCounters).where(eq(loginCounters.account, account));
    },

    /**
     * Counts one attempt on the counter of `key` and returns the new count, in one statement: none is counted
     * (null) when the counter already holds `max` attempts since `since`. A counter last touched before `since`
     * starts again from zero. Concurrent calls (any number of processes on one database) get distinct counts.
     */
    async takeLoginAttempt(key: LoginCounterKey, max: number, since: Date, at: Date): Promise<number | null> {
      const stale = sql`${loginCounters.lastAt} < ${since.toISOString()}::timestamptz`;
      const rows = await db
        .insert(loginCounters)
        .values({ account: key.account, ip: key.ip, attempts: 1, lastAt: at })
        .onConflictDoUpdate({
          target: [loginCounters.account, loginCounters.ip],
          set: { attempts: sql`case when ${stale} then 1 else ${loginCounters.attempts} + 1 end`, lastAt: at },
          setWhere: sql`${stale} or ${loginCounters.attempts} < ${max}`,
        })
        .returning({ attempts: loginCounters.attempts });
      return rows[0]?.attempts ?? null;
    },

    /**
     * Counts `n` attempts on the counter of `key` without a limit; returns the new count. A counter last touched
     * before `since` starts again from zero. `extend` (default true) moves the counter's time to `at`, so its window
     * runs from this attempt; an attempt counted only while it is in flight passes false (it is given back when it
     * succeeds, and must not keep older failures alive: its failure extends the window then).
     */
    async addLoginAttempts(key: LoginCounterKey, n: number, since: Date, at: Date, extend = true): Promise<number> {
      const stale = sql`${loginCounters.lastAt} < ${since.toISOString()}::timestamptz`;
      const rows = await db
        .insert(loginCounters)
        .values({ account: key.account, ip: key.ip, attempts: n, lastAt: at })
        .onConflictDoUpdate({
          target: [loginCounters.account, loginCounters.ip],
          set: {
            attempts: sql`case when ${stale} then 0 else ${loginCounters.attempts} end + ${n}::integer`,
            lastAt: extend ? at : sql`case when ${stale} then ${at.toISOString()}::timestamptz else ${loginCounters.lastAt} end`,
          },
        })
        .returning({ attempts: loginCounters.attempts });
      return rows[0]!.attempts;
    },

    /** Gives back one attempt taken on the counter of `key` (an attempt that checked no password, or succeeded). */
    async releaseLoginAttempt(key: LoginCounterKey): Promise<void> {
      await db
        .update(loginCounters)
        .set({ attempts: sql`greatest(${loginCounters.attempts} - 1, 0)` })
        .where(and(eq(loginCounters.account, key.account), eq(loginCounters.ip, key.ip)));
    },

    /** The attempts on the counter of `key` since `since` (0 when it has none or is older). */
    async loginAttempts(key: LoginCounterKey, since: Date): Promise<number> {
      const rows = await db
        .select({ attempts: loginCounters.attempts })
        .from(loginCounters)
        .where(and(eq(loginCounters.account, key.account), eq(loginCounters.ip, key.ip), gte(loginCounters.lastAt, since)));
      return rows[0]?.attempts ?? 0;
    },

    /** Deletes the login counters last touched before `before` and the failure rows older than `failuresBefore`. */
    async purgeLoginRecords(before: Date, failuresBefore: Date): Promise<void> {
      await db.delete(loginCounters).where(lt(loginCounters.lastAt, before));
      await db.delete(loginFailures).where(lt(loginFailures.createdAt, failuresBefore));
    },

    /** The user's favourites, oldest first, optionally of one market type. */
    async listFavorites(userId: bigint, type?: string): Promise<Array<{ pairsName: string; type: string }>> {
      const where = type ? and(eq(favorites.userId, userId), eq(favorites.type, type)) : eq(favorites.userId, userId);
      return db
        .select({ pairsName: favorites.pairsName, type: favorites.type })
        .from(favorites)
        .where(where)
        .orderBy(asc(favorites.createdAt), asc(favorites.pairsName));
    },

    /** Whether `pairsName` is listed as a market of `type` (the favourites of unlisted pairs are refused). */
    async isListed(pairsName: string, type: string): Promise<boolean> {
      const rows = await db
        .select({ id: markets.id })
        .from(markets)
        .where(and(eq(markets.symbol, pairsName), eq(markets.type, type)))
        .limit(1);
      return rows.length > 0;
    },

    /** Adds a favourite (no-op when present). */
    async addFavorite(userId: bigint, pairsName: string, type: string): Promise<void> {
      await db.insert(favorites).values({ userId, pairsName, type }).onConflictDoNothing();
    },

    /** Removes a favourite (no-op when absent). */
    async removeFavorite(userId: bigint, pairsName: string, type: string): Promise<void> {
      await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.pairsName, pairsName), eq(favorites.type, type)));
    },
  };
}

/** The member repository. */
export type MemberRepository = ReturnType<typeof createMemberRepository>;
