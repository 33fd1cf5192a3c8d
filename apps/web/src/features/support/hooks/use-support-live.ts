/**
 * The customer-service push written into the query cache: a 'supportChat' message (an operator's reply, the user's
 * own message from another device, a conversation closed) is appended to the chat; the chat state is refreshed by
 * useSupportState (shared/session).
 */
import { useQueryClient } from '@tanstack/react-query';
import type { SupportMessage, SupportMessagePage } from '@exchange/api';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { withMessage } from '../api/get-messages';
import { supportKeys } from '../api/keys';

/** Subscribes while mounted (only when logged in). `onMessage` hears every push. */
export function useSupportLive(onMessage?: (m: SupportMessage) => void): void {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'supportChat' } : null, (msg) => {
    if (msg.channel !== 'supportChat') return;
    qc.setQueryData<SupportMessagePage>(supportKeys.messages(userId), (old) => (old ? withMessage(old, msg.data) : old));
    onMessage?.(msg.data);
  });
}
