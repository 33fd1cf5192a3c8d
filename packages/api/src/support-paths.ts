/**
 * Paths and limits of customer service (support.ts), in a module of their own with no schema in it: the web app's
 * home header imports the chat state path into its first load, which must not carry TypeBox (a module's top-level
 * schema calls are kept by the bundler even when unused).
 */

/** Paths of the app's customer-service calls (relative to /api/). */
export const SUPPORT_PATHS = {
  /** GET, login: the user's chat state: the open conversation, unread replies, whether an operator is online */
  getState: 'support/chat/getState',
  /** GET, login: messages of the user's conversations, oldest first (marks the replies read) */
  getMessages: 'support/chat/getMessages',
  /** POST, login: a message (text or an uploaded image, purpose SUPPORT); opens a conversation when none is open */
  sendMessage: 'support/chat/sendMessage',
  /** GET, login: an image of one of the user's own messages */
  image: 'support/chat/image',
} as const;

/** Paths of the console's customer-service calls (relative to /api/). */
export const SUPPORT_ADMIN_PATHS = {
  conversations: 'admin/support/conversations',
  conversation: 'admin/support/conversation',
  reply: 'admin/support/reply',
  assign: 'admin/support/assign',
  close: 'admin/support/close',
  image: 'admin/support/image',
  agents: 'admin/support/agents',
  cannedReplies: 'admin/support/cannedReplies',
  saveCannedReply: 'admin/support/saveCannedReply',
  deleteCannedReply: 'admin/support/deleteCannedReply',
} as const;

/** The private WebSocket channel of support messages (a message of the user's conversation, either side's). */
export const SUPPORT_WS_TOPIC = 'supportChat' as const;

/** Longest message, characters. */
export const SUPPORT_TEXT_MAX = 1000;
/** Messages a user may send per SUPPORT_RATE_WINDOW_MS (our value; beyond it support_rate_limited, HTTP 429). */
export const SUPPORT_USER_MESSAGES_PER_WINDOW = 10;
/** Replies an operator may send per SUPPORT_RATE_WINDOW_MS. */
export const SUPPORT_OPERATOR_MESSAGES_PER_WINDOW = 30;
/** The window of the send limits, ms. */
export const SUPPORT_RATE_WINDOW_MS = 10_000;
