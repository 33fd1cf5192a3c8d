/**
 * The in-app inbox (route /message): the caller's messages (paged, newest first, by category), unread counts,
 * read marks. Messages are written by the projector (inbox.projection.ts) and, for the security log's entries, by
 * `writeSecurityMessage` inside the security log's own transaction (inbox.repository.ts insertSecurityMessage); the
 * rest of this service reads them and keeps the read state. A read waits
 * (briefly) for the projection to catch up with the engine, so a message of a command the user just saw succeed is
 * there.
 */
import { INBOX_CATEGORIES, INBOX_KINDS, type InboxCategory, type InboxMarked, type InboxMessage, type InboxPage, type InboxUnread } from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import { createInboxRepository, insertSecurityMessage, SECURITY_INBOX_KINDS, type InboxMessageRow } from './inbox.repository';
import { displayParams } from './inbox.format';

/** Longest wait for the projection before a read goes ahead with what the database has (ms). */
const PROJECTION_WAIT_MS = 2000;
/** Largest message id (PostgreSQL bigint). */
const MAX_ID = 2n ** 63n - 1n;

/** The inbox's operations for the routes. Errors: AppError('inbox_message_not_found', 404) for markRead. */
export interface InboxService {
  /** Page `page` (1-based) of `pageSize` of the user's messages, of one category when given, newest first. */
  list(userId: string, category: InboxCategory | undefined, page: number, pageSize: number): Promise<InboxPage>;
  /** The user's unread messages, in total and per category. */
  unread(userId: string): Promise<InboxUnread>;
  /** Marks one of the user's messages read (a message of another user is "not found"). */
  markRead(userId: string, id: string): Promise<InboxMarked>;
  /** Marks every unread message of the user read (of one category when given). */
  markAllRead(userId: string, category: InboxCategory | undefined): Promise<InboxMarked>;
  /** True when a security-log entry of `type` makes an inbox message (password and 2FA changes, a new device's log-in). */
  makesSecurityMessage(type: string): boolean;
  /**
   * Writes the inbox message of security-log entry `e` (key `sec:<id>`, category ACCOUNT) in the caller's
   * transaction `tx`, so the entry and its message are written together; false when its type makes none.
   */
  writeSecurityMessage(
    tx: Db,
    e: { id: bigint; userId: bigint; type: string; detail: string; ip: string; userAgent: string; createdAt: Date },
  ): Promise<boolean>;
}

/** Builds the inbox service over the database and the engine (for coins' and markets' scales). */
export function createInboxService(deps: { db: Db; host: EnginePort; now?: () => number }): InboxService {
  const repo = createInboxRepository(deps.db);
  const now = deps.now ?? Date.now;
  const { host } = deps;

  async function caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([host.projected().catch(() => {}), new Promise<void>((r) => (timer = setTimeout(r, PROJECTION_WAIT_MS)))]);
    clearTimeout(timer);
  }

  function toMessage(r: InboxMessageRow): InboxMessage {
    let stored: Record<string, string> = {};
    try {
      const v = JSON.parse(r.params) as unknown;
      if (typeof v === 'object' && v !== null) stored = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
    } catch {
      stored = {};
    }
    const category = (INBOX_CATEGORIES as readonly string[]).includes(r.category)
      ? (r.category as InboxCategory)
      : (INBOX_KINDS[r.kind as keyof typeof INBOX_KINDS] ?? 'ACCOUNT');
    return { id: r.id.toString(), category, kind: r.kind, params: displayParams(r.kind, stored, host.engine), ts: r.ts, read: r.readAt !== null };
  }

  async function unread(userId: bigint): Promise<InboxUnread> {
    const by = await repo.unreadByCategory(userId);
    const byCategory = { TRADE: by.TRADE ?? 0, ASSET: by.ASSET ?? 0, OTC: by.OTC ?? 0, ACCOUNT: by.ACCOUNT ?? 0 };
    return { total: byCategory.TRADE + byCategory.ASSET + byCategory.OTC + byCategory.ACCOUNT, byCategory };
  }

  return {
    makesSecurityMessage: (type) => SECURITY_INBOX_KINDS[type] !== undefined,
    writeSecurityMessage: (tx, e) => insertSecurityMessage(tx, e),

    async list(userId, category, page, pageSize) {
      await caughtUp();
      const { rows, total } = await repo.list(BigInt(userId), category, (page - 1) * pageSize, pageSize);
      return { records: rows.map(toMessage), total, page, pageSize };
    },

    async unread(userId) {
      await caughtUp();
      return unread(BigInt(userId));
    },

    async markRead(userId, id) {
      const uid = BigInt(userId);
      const key = BigInt(id);
      // An id beyond the column's range (bigint) names no message.
      if (key > MAX_ID) throw new AppError('inbox_message_not_found', 404);
      const done = await repo.markRead(uid, key, new Date(now()));
      if (done === null) throw new AppError('inbox_message_not_found', 404);
      return { marked: done ? 1 : 0, unread: await unread(uid) };
    },

    async markAllRead(userId, category) {
      await caughtUp();
      const uid = BigInt(userId);
      const marked = await repo.markAllRead(uid, category, new Date(now()));
      return { marked, unread: await unread(uid) };
    },
  };
}
