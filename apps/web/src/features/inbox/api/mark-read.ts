/**
 * POST member/message/markRead and markAllRead (login): read marks. The answer carries the unread counts after the
 * change: they go straight into the unread query (the badges update at once), then the user's lists are refetched.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { INBOX_PATHS, type InboxCategory, type InboxMarked } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { inboxKeys } from '../../../shared/inbox-api';
import { useAppStore } from '../../../shared/storage';

/** Marks one of the caller's messages read; throws ApiError. */
export function markInboxRead(id: string): Promise<InboxMarked> {
  return apiPost<InboxMarked>(INBOX_PATHS.markRead, { id }, { silent: true });
}

/** Marks every unread message of the caller read (of one category when given); throws ApiError (toasted). */
export function markAllInboxRead(category?: InboxCategory): Promise<InboxMarked> {
  return apiPost<InboxMarked>(INBOX_PATHS.markAllRead, category ? { category } : {});
}

function useAfterMark() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return (r: InboxMarked) => {
    qc.setQueryData(inboxKeys.unread(userId), r.unread);
    if (r.marked > 0) void qc.invalidateQueries({ queryKey: ['inbox', userId, 'list'] });
  };
}

/** Mutation: mark one message read. */
export function useMarkInboxRead() {
  const after = useAfterMark();
  return useMutation({ mutationFn: markInboxRead, onSuccess: after });
}

/** Mutation: mark all (of a category) read. */
export function useMarkAllInboxRead() {
  const after = useAfterMark();
  return useMutation({ mutationFn: markAllInboxRead, onSuccess: after });
}
