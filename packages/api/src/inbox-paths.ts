/**
 * Paths of the inbox API (inbox.ts), in a module of their own with no schema in it: the web app's first load imports
 * the unread count's path (the home header's badge), and must not carry TypeBox for it.
 */

/** Paths of the inbox API, relative to `/api/`. */
export const INBOX_PATHS = {
  /** GET: the caller's messages, newest first, paged; `category` optional */
  list: 'member/message/list',
  /** GET: the caller's unread messages, in total and per category */
  unreadCount: 'member/message/unreadCount',
  /** POST: marks one of the caller's messages read */
  markRead: 'member/message/markRead',
  /** POST: marks every unread message of the caller read (of one category when given) */
  markAllRead: 'member/message/markAllRead',
} as const;
