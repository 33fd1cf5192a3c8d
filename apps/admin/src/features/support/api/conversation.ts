/**
 * GET admin/support/conversation (a conversation and its messages, polled while open; reading marks the user's
 * messages read) and its actions: reply, assign or claim, close. Every action refreshes the console's queries.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_ADMIN_PATHS, type AdminSupportConversation, type AdminSupportConversationDetail, type SupportMessage } from '@exchange/api';
import { apiGet, apiPost } from '../../../shared/api';

/** How often an open conversation is polled, ms. */
export const CONVERSATION_POLL_MS = 2000;

/** The query of a conversation. */
export function conversationOptions(conversationId: string) {
  return queryOptions({
    queryKey: ['admin', 'support', 'conversation', conversationId],
    queryFn: () => apiGet<AdminSupportConversationDetail>(SUPPORT_ADMIN_PATHS.conversation, { conversationId }),
    enabled: conversationId !== '',
    refetchInterval: CONVERSATION_POLL_MS,
  });
}

/** A conversation, live. */
export function useConversation(conversationId: string) {
  return useQuery(conversationOptions(conversationId));
}

/** The actions on a conversation. */
export type ConversationAction =
  | { kind: 'reply'; conversationId: string; text: string }
  | { kind: 'assign'; conversationId: string; operatorId?: string }
  | { kind: 'close'; conversationId: string };

/** Sends an action. */
export function act(a: ConversationAction): Promise<SupportMessage | AdminSupportConversation> {
  if (a.kind === 'reply') return apiPost(SUPPORT_ADMIN_PATHS.reply, { conversationId: a.conversationId, text: a.text });
  if (a.kind === 'assign')
    return apiPost(SUPPORT_ADMIN_PATHS.assign, { conversationId: a.conversationId, ...(a.operatorId ? { operatorId: a.operatorId } : {}) });
  return apiPost(SUPPORT_ADMIN_PATHS.close, { conversationId: a.conversationId });
}

/** The action mutation; refreshes the queue and the conversation. */
export function useConversationAction() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: act, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'support'] }) });
}
