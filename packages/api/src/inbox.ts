/**
 * Wire schemas of the in-app inbox (route /message; server domains/inbox, rows of its projection, domains/inbox/inbox.projection.ts).
 *
 * A message is a kind and its parameters, never stored prose: the app renders the title and the text in the reader's
 * language from `kind` and `params` (apps/web features/inbox locales). Parameters are strings; amounts, prices and
 * quantities are decimal strings at their coin's or market's scale ("0.50000000"), formatted by the server.
 *
 * Routes (app API style, envelope, headers token/userId): GET list (paged, newest first, optionally one category),
 * GET unreadCount, POST markRead (one of the caller's messages), POST markAllRead (optionally one category).
 * Live: the private WebSocket channel 'inbox' ({ channel: 'inbox' }) tells the user's sockets that a message arrived
 * or changed; the app then refetches the unread count and the list.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Paged } from './schemas';

export { INBOX_PATHS } from './inbox-paths';

/** The inbox tabs: fills and liquidations, deposits and withdrawals, fiat orders, identity and security. */
export const INBOX_CATEGORIES = ['TRADE', 'ASSET', 'OTC', 'ACCOUNT'] as const;
export type InboxCategory = (typeof INBOX_CATEGORIES)[number];
export const InboxCategorySchema = Type.Union([Type.Literal('TRADE'), Type.Literal('ASSET'), Type.Literal('OTC'), Type.Literal('ACCOUNT')]);

/**
 * Every kind of message with its category. Parameters of each (all strings):
 * - DEPOSIT_CREDITED: coin, amount, chain
 * - WITHDRAWAL_COMPLETED: coin, amount (received), fee, chain, address
 * - WITHDRAWAL_REJECTED: coin, amount, reasonZh, reasonEn (an operator's rejection; the funds are back)
 * - WITHDRAWAL_FAILED: coin, amount (failed on chain; the funds are back)
 * - SPOT_FILLED: orderId, pairsName, side (BUY/SELL), filledQty, filledQuote, avgPrice, baseCoin, quoteCoin, status
 *   (PARTIALLY_FILLED, FILLED, CANCELED ...): one message per order, updated by each later fill
 * - CONTRACT_FILLED: the same for a perpetual order, plus tradeType (OPEN_LONG, CLOSE_SHORT ...)
 * - LIQUIDATED: pairsName, side (LONG/SHORT), size, markPrice, baseCoin
 * - KYC_APPROVED: level (BASIC/ADVANCED); KYC_REJECTED: level, reasonZh, reasonEn
 * - OTC_TAKEN (your ad was taken), OTC_PAID (the buyer paid), OTC_RELEASED (the seller released), OTC_CANCELLED
 *   (reason BUYER_CANCELLED or TIMEOUT), OTC_APPEAL (the other side appealed), OTC_APPEAL_CANCELLED, OTC_APPEAL_RESOLVED
 *   (outcome RELEASED or RETURNED): orderId, coin, quantity, fiat, fiatAmount, and reason/outcome where said
 * - LOGIN_NEW_DEVICE: ip, device; PASSWORD_CHANGED, PASSWORD_RESET, TRANS_PASSWORD_SET, TRANS_PASSWORD_CHANGED,
 *   TRANS_PASSWORD_RESET, GOOGLE_BOUND, GOOGLE_CLOSED: ip; ACCOUNT_BOUND: ip, detail (PHONE or EMAIL)
 */
export const INBOX_KINDS = {
  DEPOSIT_CREDITED: 'ASSET',
  WITHDRAWAL_COMPLETED: 'ASSET',
  WITHDRAWAL_REJECTED: 'ASSET',
  WITHDRAWAL_FAILED: 'ASSET',
  SPOT_FILLED: 'TRADE',
  CONTRACT_FILLED: 'TRADE',
  LIQUIDATED: 'TRADE',
  KYC_APPROVED: 'ACCOUNT',
  KYC_REJECTED: 'ACCOUNT',
  OTC_TAKEN: 'OTC',
  OTC_PAID: 'OTC',
  OTC_RELEASED: 'OTC',
  OTC_CANCELLED: 'OTC',
  OTC_APPEAL: 'OTC',
  OTC_APPEAL_CANCELLED: 'OTC',
  OTC_APPEAL_RESOLVED: 'OTC',
  LOGIN_NEW_DEVICE: 'ACCOUNT',
  PASSWORD_CHANGED: 'ACCOUNT',
  PASSWORD_RESET: 'ACCOUNT',
  TRANS_PASSWORD_SET: 'ACCOUNT',
  TRANS_PASSWORD_CHANGED: 'ACCOUNT',
  TRANS_PASSWORD_RESET: 'ACCOUNT',
  GOOGLE_BOUND: 'ACCOUNT',
  GOOGLE_CLOSED: 'ACCOUNT',
  ACCOUNT_BOUND: 'ACCOUNT',
} as const satisfies Record<string, InboxCategory>;
export type InboxKind = keyof typeof INBOX_KINDS;

const Id = Type.String({ pattern: '^[0-9]{1,20}$' });

/** One message as the app shows it. */
export const InboxMessage = Type.Object({
  id: Type.String(),
  category: InboxCategorySchema,
  kind: Type.String(),
  /** the kind's parameters, display-ready strings (see INBOX_KINDS) */
  params: Type.Record(Type.String(), Type.String()),
  /** Unix ms */
  ts: Type.Number(),
  read: Type.Boolean(),
});
export type InboxMessage = Static<typeof InboxMessage>;
export const InboxPage = Paged(InboxMessage);
export type InboxPage = Static<typeof InboxPage>;

/** Query of list. */
export const GetInboxQuery = Type.Object({
  category: Type.Optional(InboxCategorySchema),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type GetInboxQuery = Static<typeof GetInboxQuery>;

/** Answer of unreadCount: the total and per category (every category present, 0 when none). */
export const InboxUnread = Type.Object({
  total: Type.Integer(),
  byCategory: Type.Object({ TRADE: Type.Integer(), ASSET: Type.Integer(), OTC: Type.Integer(), ACCOUNT: Type.Integer() }),
});
export type InboxUnread = Static<typeof InboxUnread>;

/** Body of markRead. */
export const MarkInboxReadBody = Type.Object({ id: Id });
/** Body of markAllRead. */
export const MarkAllInboxReadBody = Type.Object({ category: Type.Optional(InboxCategorySchema) });
/** Answer of markRead and markAllRead: how many messages became read, and the unread count after. */
export const InboxMarked = Type.Object({ marked: Type.Integer(), unread: InboxUnread });
export type InboxMarked = Static<typeof InboxMarked>;
