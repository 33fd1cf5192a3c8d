/**
 * SQL of the member area: users, sessions, login failures and favourites. Times come in from the service
 * (its clock), so expiry is decided by one clock whichever database runs.
 */
import { and, asc, count, eq, gt, gte, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { favorites, loginFailures, markets, sessions, users } from '../../db/schema';
import type { Account } from './account';

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

    /** Stores a session by the sha256 of its token. */
    async insertSession(row: { tokenHash: string; userId: bigint; createdAt: Date; expiresAt: Date }): Promise<void> {
      await db.insert(sessions).values(row);
    },

    /** Whether a live (unrevoked, unexpired at `now`) session with this token hash belongs to `userId`. */
    async liveSession(tokenHash: string, userId: bigint, now: Date): Promise<Date | null> {
      const rows = await db
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .limit(1);
      return rows[0]?.expiresAt ?? null;
    },

    /** Revokes the session with this token hash. */
    async revokeSession(tokenHash: string, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
    },

    /** Revokes every session of a user. */
    async revokeAllSessions(userId: bigint, now: Date): Promise<void> {
      await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    },

    /** Failed logins of an account key since `since`. */
    async failuresByAccount(account: string, since: Date): Promise<number> {
      const rows = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.account, account), gte(loginFailures.createdAt, since)));
      return Number(rows[0]?.n ?? 0);
    },

    /** Failed logins from an IP since `since`. */
    async failuresByIp(ip: string, since: Date): Promise<number> {
      const rows = await db
        .select({ n: count() })
        .from(loginFailures)
        .where(and(eq(loginFailures.ip, ip), gte(loginFailures.createdAt, since)));
      return Number(rows[0]?.n ?? 0);
    },

    /** Records a failed login. */
    async addFailure(account: string, ip: string, at: Date): Promise<void> {
      await db.insert(loginFailures).values({ account, ip, createdAt: at });
    },

    /** Forgets the failed logins of an account (after a success or a password reset). */
    async clearFailures(account: string): Promise<void> {
      await db.delete(loginFailures).where(eq(loginFailures.account, account));
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
      const rows = await db.select({ id: markets.id }).from(markets).where(and(eq(markets.symbol, pairsName), eq(markets.type, type))).limit(1);
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
