/** POST otc/otc/sendMessage (login, the two sides): a chat message, text or an uploaded image. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { OTC_PATHS, type OtcChatMessage } from '@exchange/api';
import { apiPost } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { appendMessage } from './get-messages';
import { otcKeys } from './keys';

/** Sends a message; throws ApiError (toasted). */
export function sendOtcMessage(v: { orderId: string; text?: string; imageId?: string }): Promise<OtcChatMessage> {
  return apiPost<OtcChatMessage>(OTC_PATHS.sendMessage, v);
}

/** Mutation sending a message; the answer goes into the chat at once. */
export function useSendOtcMessage(orderId: string) {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  return useMutation({
    mutationFn: (v: { text?: string; imageId?: string }) => sendOtcMessage({ orderId, ...v }),
    onSuccess: (m) => {
      if (m && typeof m === 'object' && 'id' in m) qc.setQueryData<OtcChatMessage[]>(otcKeys.messages(userId, orderId), (old) => appendMessage(old, m));
      else void qc.invalidateQueries({ queryKey: otcKeys.messages(userId, orderId) });
    },
  });
}
