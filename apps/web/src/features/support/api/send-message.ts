/** POST support/chat/sendMessage (login): a message to customer service, text and/or an uploaded image. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SUPPORT_PATHS, type SupportMessage, type SupportMessagePage } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { supportStateKey } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';
import { withMessage } from './get-messages';
import { supportKeys } from './keys';

/** Sends a message; throws ApiError (toasted: empty, image refused, too many messages). */
export function sendSupportMessage(v: { text?: string; imageId?: string }): Promise<SupportMessage> {
  return apiPost<SupportMessage>(SUPPORT_PATHS.sendMessage, v);
}

/** Mutation sending a message; the answer goes into the chat at once and the state (waiting) is refreshed. */
export function useSendSupportMessage() {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: sendSupportMessage,
    onSuccess: (m) => {
      qc.setQueryData<SupportMessagePage>(supportKeys.messages(userId), (old) => withMessage(old, m));
      void qc.invalidateQueries({ queryKey: supportStateKey(userId) });
    },
  });
}
