/**
 * Query keys of the in-app inbox (/message). Every key of a user's inbox starts with ['inbox', userId], so a
 * push or a read mark invalidates all of it (the unread badge of the home header and side menu, the lists).
 */
import type { InboxCategory } from '@exchange/api';

/** The inbox's query keys. */
export const inboxKeys = {
  user: (userId: string) => ['inbox', userId] as const,
  unread: (userId: string) => ['inbox', userId, 'unread'] as const,
  list: (userId: string, category: InboxCategory | 'ALL') => ['inbox', userId, 'list', category] as const,
};
