/**
 * Wire schemas of customer service (the live support chat between users and operators). The app's calls
 * (SUPPORT_PATHS) need a session (headers token/userId); the console's (SUPPORT_ADMIN_PATHS) an operator session
 * (x-admin-token) whose role has the `support` permission (admin.ts ROLE_PERMISSIONS: roles support and admin).
 * Envelope as everywhere; POST bodies form-encoded or JSON; times Unix ms; ids decimal strings.
 *
 * A user has at most one open conversation: the first message opens one (it waits in the queue until an operator
 * answers), an operator claims or is assigned it, replies, and closes it; the next message opens a new one. The
 * user sees the whole history of their conversations. Operator replies arrive live over the WebSocket (private
 * channel `supportChat`, SUPPORT_WS_TOPIC) and count as unread until the user reads the chat.
 * Not money: database tables, not the journal.
 */
import { Type, type Static } from '@sinclair/typebox';
import { SUPPORT_TEXT_MAX } from './support-paths';

export * from './support-paths';

const Id = Type.String({ pattern: '^[1-9][0-9]{0,17}$' });

/** Who wrote a message: the user, an operator, or the system (a conversation closed). */
export const SupportSender = Type.Union([Type.Literal('USER'), Type.Literal('OPERATOR'), Type.Literal('SYSTEM')]);
export type SupportSender = Static<typeof SupportSender>;

/** A message as the app shows it. SYSTEM messages carry a key as text (CLOSED), shown in the reader's language. */
export const SupportMessage = Type.Object({
  id: Type.String(),
  conversationId: Type.String(),
  from: SupportSender,
  /** true for the user's own messages (the app); false in the console */
  mine: Type.Boolean(),
  text: Type.String(),
  /** '' for text; else the authorized download of the image (app: support/chat/image, console: admin/support/image) */
  imageUrl: Type.String(),
  /** the operator's display name for OPERATOR messages, '' otherwise */
  operatorName: Type.String(),
  createdAt: Type.Number(),
});
export type SupportMessage = Static<typeof SupportMessage>;

/** The user's chat state (the header icon's badge, the chat's status line). */
export const SupportChatState = Type.Object({
  /** the open conversation's id, '' when none is open */
  conversationId: Type.String(),
  /** operator messages the user has not read */
  unread: Type.Integer(),
  /** the operator the open conversation is assigned to, '' when none */
  operatorName: Type.String(),
  /** true when the user's last message is not answered yet */
  waiting: Type.Boolean(),
  /** true when an operator has had the console open in the last minute */
  operatorsOnline: Type.Boolean(),
});
export type SupportChatState = Static<typeof SupportChatState>;

/** Query of getMessages: after a message id (new ones, oldest first) or before one (older history, the last 50). */
export const GetSupportMessagesQuery = Type.Object({
  afterId: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
  beforeId: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
});
/** A page of messages, oldest first; `hasMore` when older ones exist before the first. */
export const SupportMessagePage = Type.Object({ messages: Type.Array(SupportMessage), hasMore: Type.Boolean() });
export type SupportMessagePage = Static<typeof SupportMessagePage>;

/** Body of sendMessage: text, or an image uploaded with purpose SUPPORT, or both. */
export const SendSupportMessageBody = Type.Object({
  text: Type.Optional(Type.String({ maxLength: SUPPORT_TEXT_MAX })),
  imageId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
/** Query of the app's image route. */
export const SupportImageQuery = Type.Object({ imageId: Type.String({ minLength: 1, maxLength: 64 }) });

// ---------------------------------------------------------------- console

/** Filters of the console's queue: OPEN (all open, waiting first), WAITING (unanswered, oldest first), MINE, ASSIGNED, CLOSED. */
export const SupportQueueFilter = Type.Union([
  Type.Literal('OPEN'),
  Type.Literal('WAITING'),
  Type.Literal('MINE'),
  Type.Literal('ASSIGNED'),
  Type.Literal('CLOSED'),
]);
export type SupportQueueFilter = Static<typeof SupportQueueFilter>;
/** A conversation's status as the queue shows it: WAITING (unanswered, unassigned), ASSIGNED, OPEN (answered), CLOSED. */
export const SupportStatus = Type.Union([Type.Literal('WAITING'), Type.Literal('ASSIGNED'), Type.Literal('OPEN'), Type.Literal('CLOSED')]);
export type SupportStatus = Static<typeof SupportStatus>;

/** A conversation in the console. */
export const AdminSupportConversation = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  /** the user's UID, e-mail or phone, nickname (as the console's user lookup shows them) */
  uid: Type.String(),
  account: Type.String(),
  nickName: Type.String(),
  /** the language the user writes in (zh or en): canned replies are offered in it */
  lang: Type.Union([Type.Literal('zh'), Type.Literal('en')]),
  status: SupportStatus,
  /** the user's first unanswered message, 0 when answered */
  waitingSince: Type.Number(),
  assignedOperatorId: Type.String(),
  assignedOperatorName: Type.String(),
  /** user messages no operator has read */
  unread: Type.Integer(),
  lastMessage: Type.String(),
  lastMessageAt: Type.Number(),
  createdAt: Type.Number(),
  closedAt: Type.Number(),
});
export type AdminSupportConversation = Static<typeof AdminSupportConversation>;

export const AdminSupportQueueQuery = Type.Object({
  filter: Type.Optional(SupportQueueFilter),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export const AdminSupportQueue = Type.Object({
  records: Type.Array(AdminSupportConversation),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  /** open conversations waiting for an answer (the menu's badge) */
  waiting: Type.Integer(),
});
export type AdminSupportQueue = Static<typeof AdminSupportQueue>;

export const AdminSupportConversationQuery = Type.Object({
  conversationId: Id,
  afterId: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
});
/** A conversation with its messages (after `afterId`, or the last 200), oldest first; reading marks them read. */
export const AdminSupportConversationDetail = Type.Object({ conversation: AdminSupportConversation, messages: Type.Array(SupportMessage) });
export type AdminSupportConversationDetail = Static<typeof AdminSupportConversationDetail>;

export const AdminSupportReplyBody = Type.Object({ conversationId: Id, text: Type.String({ minLength: 1, maxLength: SUPPORT_TEXT_MAX }) });
/** Assign to an operator (with the support permission), or claim it (operatorId absent: the caller). */
export const AdminSupportAssignBody = Type.Object({ conversationId: Id, operatorId: Type.Optional(Id) });
export const AdminSupportCloseBody = Type.Object({ conversationId: Id });
export const AdminSupportImageQuery = Type.Object({ conversationId: Id, imageId: Type.String({ minLength: 1, maxLength: 64 }) });

/** An operator who can take conversations (role with `support`), for the assign select. */
export const SupportAgent = Type.Object({ id: Type.String(), name: Type.String(), online: Type.Boolean() });
export type SupportAgent = Static<typeof SupportAgent>;

/** A canned reply: a title and the text in both languages. */
export const CannedReply = Type.Object({
  id: Type.String(),
  title: Type.String(),
  textZh: Type.String(),
  textEn: Type.String(),
  updatedAt: Type.Number(),
});
export type CannedReply = Static<typeof CannedReply>;
/** Create (no id) or edit a canned reply. */
export const SaveCannedReplyBody = Type.Object({
  id: Type.Optional(Id),
  title: Type.String({ minLength: 1, maxLength: 60 }),
  textZh: Type.String({ minLength: 1, maxLength: SUPPORT_TEXT_MAX }),
  textEn: Type.String({ minLength: 1, maxLength: SUPPORT_TEXT_MAX }),
});
export const DeleteCannedReplyBody = Type.Object({ id: Id });
