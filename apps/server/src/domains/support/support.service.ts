/**
 * Customer service: a live chat between a user and the operators.
 *
 * - A user's message goes into their open conversation, or opens one that waits in the queue (waitingSince) until an
 *   operator answers; it is pushed to the user's other sockets. Images are the user's own uploads of purpose SUPPORT
 *   (checked and re-encoded by the uploads module: JPEG/PNG/WebP, at most 5 MB). At most
 *   SUPPORT_USER_MESSAGES_PER_WINDOW messages per user per 10 s (support_rate_limited, 429).
 * - An operator (role with `support`) sees the queue (waiting first, oldest first), reads a conversation (marks it
 *   read), replies (a reply claims an unassigned conversation and answers the waiting user; pushed live on the
 *   user's private channel `supportChat`, and counted unread until the user reads the chat), assigns or claims, and
 *   closes (a SYSTEM message CLOSED; the user's next message opens a new conversation). Every operator action writes
 *   its audit row in the transaction of the action. Canned replies (zh and en) are managed in the console.
 * - "Operators online": an operator who called a support route in the last PRESENCE_MS with a session that is still
 *   live (a logout takes them offline at once). Kept in this process, like the OTC chat pushes: with several
 *   gateways, each knows the operators whose console polls it (the console polls every few seconds).
 * - A user never reads another's conversation or image: every user read is keyed by the caller's id; an unknown or
 *   foreign image is the same 404.
 * Not money: database tables only, nothing through the engine.
 */
import {
  SUPPORT_OPERATOR_MESSAGES_PER_WINDOW,
  SUPPORT_RATE_WINDOW_MS,
  SUPPORT_USER_MESSAGES_PER_WINDOW,
  type AdminSupportConversation,
  type AdminSupportConversationDetail,
  type AdminSupportQueue,
  type CannedReply,
  type SupportAgent,
  type SupportChatState,
  type SupportMessage,
  type SupportMessagePage,
  type SupportQueueFilter,
} from '@exchange/api';
import type { Db } from '../../platform/db/client';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import { AppError } from '../../platform/shared/errors';
import type { Actor } from '../../platform/shared/operator';
import { can } from '../../platform/shared/operator';
import { createSlidingWindowLimiter } from '../../platform/rate-limit/sliding-window';
import type { UploadsService } from '../uploads/uploads.service';
import { createSupportRepository, type CannedRow, type ConversationRow, type MessageRow, type SupportAudit } from './support.repository';

/** A push for the WebSocket hub: the user and the message (private channel supportChat). */
export interface SupportPush {
  userId: string;
  message: { channel: 'supportChat'; data: SupportMessage };
}

/** An operator is "online" this long after their last support call (the console polls every few seconds). */
export const PRESENCE_MS = 60_000;
/** Messages of a page of history. */
const HISTORY_PAGE = 50;
/** Messages of one read after an id, at most. */
const AFTER_LIMIT = 200;

/** The customer-service service (see the file comment). Methods throw AppError with the caller's message code. */
export interface SupportService {
  /** The user's chat state: open conversation, unread replies, waiting, operators online. */
  state(userId: string): Promise<SupportChatState>;
  /** The user's messages (after or before an id; the last page by default), oldest first; marks the replies read. */
  messages(userId: string, q: { afterId?: string; beforeId?: string }): Promise<SupportMessagePage>;
  /** A user's message (text and/or image); support_message_empty, support_image_invalid, support_rate_limited. */
  send(userId: string, lang: 'zh' | 'en', body: { text?: string; imageId?: string }): Promise<SupportMessage>;
  /** An image of the user's own messages, or of the conversation for an operator; not_found otherwise. */
  image(viewer: { userId: string } | { conversationId: string }, imageId: string): Promise<{ bytes: Buffer; mime: string }>;
  /** Records that `actor` has the console open (presence). */
  seen(actor: Actor): void;
  queue(actor: Actor, filter: SupportQueueFilter, page: number, pageSize: number): Promise<AdminSupportQueue>;
  /** A conversation and its messages (after `afterId`, or the last 200); marks the user's messages read. */
  conversation(actor: Actor, conversationId: string, afterId?: string): Promise<AdminSupportConversationDetail>;
  reply(actor: Actor, conversationId: string, text: string): Promise<SupportMessage>;
  /** Assigns to `operatorId` (a non-disabled operator whose role has `support`), or to the actor when absent. */
  assign(actor: Actor, conversationId: string, operatorId?: string): Promise<AdminSupportConversation>;
  close(actor: Actor, conversationId: string): Promise<AdminSupportConversation>;
  agents(): Promise<SupportAgent[]>;
  cannedReplies(): Promise<CannedReply[]>;
  saveCannedReply(actor: Actor, body: { id?: string; title: string; textZh: string; textEn: string }): Promise<CannedReply>;
  deleteCannedReply(actor: Actor, id: string): Promise<void>;
  /** Listeners of the private pushes (the WebSocket hub); returns the unsubscribe function. */
  onPush(listener: (p: SupportPush) => void): () => void;
}

/** A decimal id below 2^63, or null. */
function idOf(s: string | undefined): bigint | null {
  if (s === undefined || !/^[0-9]{1,19}$/.test(s)) return null;
  const v = BigInt(s);
  return v < 2n ** 63n ? v : null;
}

/** Builds the service over the database, the engine's user profiles (names in the queue) and the uploads. */
export function createSupportService(deps: {
  db: Db;
  host: Pick<EnginePort, 'engine'>;
  uploads: Pick<UploadsService, 'ownImage' | 'imageFor'>;
  /** Clock in ms (tests move it). */
  now?: () => number;
}): SupportService {
  const repo = createSupportRepository(deps.db);
  const now = deps.now ?? Date.now;
  const listeners = new Set<(p: SupportPush) => void>();
  const userRate = createSlidingWindowLimiter(SUPPORT_USER_MESSAGES_PER_WINDOW, SUPPORT_RATE_WINDOW_MS);
  const operatorRate = createSlidingWindowLimiter(SUPPORT_OPERATOR_MESSAGES_PER_WINDOW, SUPPORT_RATE_WINDOW_MS);
  /** operator id -> last support call and its session */
  const presence = new Map<string, { at: number; sessionId: bigint }>();

  function emit(p: SupportPush): void {
    for (const l of listeners) l(p);
  }

  function imageUrl(m: MessageRow, admin: boolean): string {
    if (m.imageId === '') return '';
    const q = `imageId=${encodeURIComponent(m.imageId)}`;
    return admin ? `/api/admin/support/image?conversationId=${m.conversationId}&${q}` : `/api/support/chat/image?${q}`;
  }

  function view(m: MessageRow, admin: boolean): SupportMessage {
    return {
      id: m.id.toString(),
      conversationId: m.conversationId.toString(),
      from: m.sender as SupportMessage['from'],
      mine: !admin && m.sender === 'USER',
      text: m.text,
      imageUrl: imageUrl(m, admin),
      operatorName: m.operatorName,
      createdAt: m.createdTs,
    };
  }

  function push(m: MessageRow): void {
    emit({ userId: m.userId.toString(), message: { channel: 'supportChat', data: view(m, false) } });
  }

  /** Operators online now (presence within PRESENCE_MS, session not revoked). */
  async function onlineOperators(): Promise<Set<string>> {
    const t = now();
    const recent = [...presence].filter(([, p]) => t - p.at < PRESENCE_MS);
    for (const [id, p] of presence) if (t - p.at >= PRESENCE_MS) presence.delete(id);
    const live = await repo.liveSessions(recent.map(([, p]) => p.sessionId));
    return new Set(recent.filter(([, p]) => live.has(p.sessionId.toString())).map(([id]) => id));
  }

  function profileOf(userId: bigint): { uid: string; account: string; nickName: string } {
    const p = deps.host.engine.user(userId.toString())?.profile;
    const account = p?.mail || (p?.phone ? `${p.areaCode || '86'} ${p.phone}` : '');
    return { uid: p?.uuid ?? '', account, nickName: p?.nickName ?? '' };
  }

  function statusOf(c: ConversationRow): AdminSupportConversation['status'] {
    if (c.closedTs > 0) return 'CLOSED';
    if (c.assignedOperatorId !== null) return 'ASSIGNED';
    return c.waitingSinceTs > 0 ? 'WAITING' : 'OPEN';
  }

  async function adminViews(rows: ConversationRow[]): Promise<AdminSupportConversation[]> {
    const ops = await repo.operatorsByIds([...new Set(rows.map((r) => r.assignedOperatorId).filter((x): x is bigint => x !== null))]);
    return rows.map((c) => ({
      id: c.id.toString(),
      userId: c.userId.toString(),
      ...profileOf(c.userId),
      lang: c.lang === 'en' ? 'en' : 'zh',
      status: statusOf(c),
      waitingSince: c.waitingSinceTs,
      assignedOperatorId: c.assignedOperatorId?.toString() ?? '',
      assignedOperatorName: c.assignedOperatorId !== null ? (ops.get(c.assignedOperatorId.toString())?.name ?? '') : '',
      unread: c.operatorUnread,
      lastMessage: c.lastMessage,
      lastMessageAt: c.lastMessageTs,
      createdAt: c.createdTs,
      closedAt: c.closedTs,
    }));
  }

  async function operatorName(actor: Actor): Promise<string> {
    return (await repo.operatorsByIds([actor.id])).get(actor.id.toString())?.name ?? actor.email;
  }

  /** The audit row of `actor`'s `action`. */
  function audit(actor: Actor, action: string, before: unknown, after: unknown): SupportAudit {
    return {
      operatorId: actor.id,
      operatorEmail: actor.email,
      action,
      before: before as object | null,
      after: after as object | null,
      at: new Date(now()),
      ip: actor.ip.slice(0, 64),
      userAgent: actor.userAgent.slice(0, 256),
    };
  }

  async function conversationOf(conversationId: string): Promise<ConversationRow> {
    const id = idOf(conversationId);
    const c = id === null ? null : await repo.conversation(id);
    if (!c) throw new AppError('support_conversation_not_found', 404);
    return c;
  }

  function cannedView(r: CannedRow): CannedReply {
    return { id: r.id.toString(), title: r.title, textZh: r.textZh, textEn: r.textEn, updatedAt: r.updatedTs };
  }

  const assignment = (c: ConversationRow) => ({ conversationId: c.id.toString(), assignedOperatorId: c.assignedOperatorId?.toString() ?? '' });

  return {
    async state(userId) {
      const uid = BigInt(userId);
      const [open, unread, online] = await Promise.all([repo.openConversation(uid), repo.userUnread(uid), onlineOperators()]);
      const opName =
        open?.assignedOperatorId != null ? ((await repo.operatorsByIds([open.assignedOperatorId])).get(open.assignedOperatorId.toString())?.name ?? '') : '';
      return {
        conversationId: open?.id.toString() ?? '',
        unread,
        operatorName: opName,
        waiting: (open?.waitingSinceTs ?? 0) > 0,
        operatorsOnline: online.size > 0,
      };
    },

    async messages(userId, q) {
      const uid = BigInt(userId);
      const after = idOf(q.afterId);
      const before = idOf(q.beforeId);
      if (q.afterId !== undefined && after === null) throw new AppError('validation_failed', 400, 'afterId');
      if (q.beforeId !== undefined && before === null) throw new AppError('validation_failed', 400, 'beforeId');
      let rows: MessageRow[];
      let hasMore = false;
      if (after !== null) rows = await repo.userMessagesAfter(uid, after, AFTER_LIMIT);
      else {
        const page = await repo.userMessagesBefore(uid, before, HISTORY_PAGE + 1);
        hasMore = page.length > HISTORY_PAGE;
        rows = hasMore ? page.slice(1) : page;
      }
      await repo.markUserRead(uid);
      return { messages: rows.map((m) => view(m, false)), hasMore };
    },

    async send(userId, lang, body) {
      const text = (body.text ?? '').trim();
      let imageId = '';
      if (body.imageId !== undefined && body.imageId !== '') {
        if ((await deps.uploads.ownImage(userId, body.imageId, 'SUPPORT')) === null) throw new AppError('support_image_invalid', 400, 'imageId');
        imageId = body.imageId;
      }
      if (text === '' && imageId === '') throw new AppError('support_message_empty', 400, 'text');
      if (!userRate.take(userId, now())) throw new AppError('support_rate_limited', 429);
      const { message } = await repo.addUserMessage(BigInt(userId), lang, {
        sender: 'USER',
        operatorId: null,
        operatorName: '',
        text,
        imageId,
        createdTs: now(),
      });
      push(message);
      return view(message, false);
    },

    async image(viewer, imageId) {
      if (!/^[A-Za-z0-9_-]{22}$/.test(imageId)) throw new AppError('not_found', 404);
      const where = 'userId' in viewer ? { userId: BigInt(viewer.userId) } : { conversationId: idOf(viewer.conversationId) ?? 0n };
      if (!(await repo.hasImage(imageId, where))) throw new AppError('not_found', 404);
      const img = await deps.uploads.imageFor(imageId, { operatorId: 'support' });
      return { bytes: img.bytes, mime: img.mime };
    },

    seen(actor) {
      presence.set(actor.id.toString(), { at: now(), sessionId: actor.sessionId });
    },

    async queue(actor, filter, page, pageSize) {
      const r = await repo.queue(filter, actor.id, page, pageSize);
      return { records: await adminViews(r.rows), total: r.total, page, pageSize, waiting: r.waiting };
    },

    async conversation(_actor, conversationId, afterId) {
      const c = await conversationOf(conversationId);
      const after = afterId === undefined ? 0n : idOf(afterId);
      if (after === null) throw new AppError('validation_failed', 400, 'afterId');
      const rows = await repo.conversationMessages(c.id, after, AFTER_LIMIT);
      if (c.operatorUnread > 0) await repo.markOperatorRead(c.id);
      const [conv] = await adminViews([{ ...c, operatorUnread: 0 }]);
      return { conversation: conv!, messages: rows.map((m) => view(m, true)) };
    },

    async reply(actor, conversationId, text) {
      const c = await conversationOf(conversationId);
      const v = text.trim();
      if (v === '') throw new AppError('support_message_empty', 400, 'text');
      if (c.closedTs > 0) throw new AppError('support_conversation_closed', 400);
      if (!operatorRate.take(actor.id.toString(), now())) throw new AppError('support_rate_limited', 429);
      const name = await operatorName(actor);
      const r = await repo.addOperatorMessage(
        c.id,
        { sender: 'OPERATOR', operatorId: actor.id, operatorName: name, text: v, imageId: '', createdTs: now() },
        audit(actor, 'support_reply', null, { conversationId: c.id.toString(), text: v.slice(0, 200) }),
      );
      if (!r) throw new AppError('support_conversation_closed', 400);
      push(r.message);
      return view(r.message, true);
    },

    async assign(actor, conversationId, operatorId) {
      const c = await conversationOf(conversationId);
      if (c.closedTs > 0) throw new AppError('support_conversation_closed', 400);
      const target = operatorId === undefined ? actor.id : idOf(operatorId);
      if (target === null) throw new AppError('support_operator_invalid', 400, 'operatorId');
      const op = (await repo.operatorsByIds([target])).get(target.toString());
      if (!op || op.disabled || !can(op.role, 'support')) throw new AppError('support_operator_invalid', 400, 'operatorId');
      const action = target === actor.id ? 'support_claim' : 'support_assign';
      const row = await repo.assign(c.id, target, (before) =>
        audit(actor, action, assignment(before), { conversationId: c.id.toString(), assignedOperatorId: target.toString() }),
      );
      if (!row) throw new AppError('support_conversation_closed', 400);
      const [v] = await adminViews([row]);
      return v!;
    },

    async close(actor, conversationId) {
      const c = await conversationOf(conversationId);
      if (c.closedTs > 0) throw new AppError('support_conversation_closed', 400);
      const r = await repo.addOperatorMessage(
        c.id,
        { sender: 'SYSTEM', operatorId: null, operatorName: '', text: 'CLOSED', imageId: '', createdTs: now() },
        audit(actor, 'support_close', assignment(c), { conversationId: c.id.toString(), closed: true }),
        true,
      );
      if (!r) throw new AppError('support_conversation_closed', 400);
      push(r.message);
      const [v] = await adminViews([r.conversation]);
      return v!;
    },

    async agents() {
      const [ops, online] = await Promise.all([repo.activeOperators(), onlineOperators()]);
      return ops.filter((o) => can(o.role, 'support')).map((o) => ({ id: o.id.toString(), name: o.name, online: online.has(o.id.toString()) }));
    },

    async cannedReplies() {
      return (await repo.cannedReplies()).map(cannedView);
    },

    async saveCannedReply(actor, body) {
      const values = { title: body.title.trim(), textZh: body.textZh.trim(), textEn: body.textEn.trim(), updatedTs: now() };
      if (values.title === '') throw new AppError('validation_failed', 400, 'title');
      if (values.textZh === '') throw new AppError('validation_failed', 400, 'textZh');
      if (values.textEn === '') throw new AppError('validation_failed', 400, 'textEn');
      if (body.id === undefined) {
        return cannedView(await repo.insertCanned(values, (row) => audit(actor, 'support_canned_create', null, cannedView(row))));
      }
      const id = idOf(body.id);
      const row =
        id === null
          ? null
          : await repo.updateCanned(id, values, (before, after) => audit(actor, 'support_canned_update', cannedView(before), cannedView(after)));
      if (!row) throw new AppError('support_canned_not_found', 404);
      return cannedView(row);
    },

    async deleteCannedReply(actor, id) {
      const key = idOf(id);
      const row =
        key === null ? null : await repo.updateCanned(key, { deletedTs: now() }, (before) => audit(actor, 'support_canned_delete', cannedView(before), null));
      if (!row) throw new AppError('support_canned_not_found', 404);
    },

    onPush(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
