/**
 * The OTC private pushes written into the query cache: an 'otcOrder' push (one of the user's orders changed)
 * replaces the order in the detail and invalidates the lists (tabs move it); an 'otcChat' push appends the message to
 * its order's chat and counts it as unread on the order's lists when it is not the user's own.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { OtcChatMessage, OtcOrderDetail } from '@exchange/api';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { appendMessage } from '../api/get-messages';
import { assetsKey, otcKeys } from '../api/keys';

/** Subscribes to the OTC channels while mounted (only when logged in). `onChat` hears every chat push. */
export function useOtcLive(onChat?: (m: OtcChatMessage) => void): void {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'otcOrder' } : null, (msg) => {
    if (msg.channel !== 'otcOrder') return;
    const o = msg.data;
    const key = otcKeys.orderDetail(userId, o.orderId);
    const old = qc.getQueryData<OtcOrderDetail>(key);
    if (old) qc.setQueryData<OtcOrderDetail>(key, { ...old, ...o });
    void qc.invalidateQueries({ queryKey: key });
    void qc.invalidateQueries({ queryKey: ['otc', userId, 'orders'] });
    if (o.state === 'COMPLETED' || o.state === 'CANCELLED') void qc.invalidateQueries({ queryKey: assetsKey(userId) });
  });
  useWsChannel(isLogin ? { channel: 'otcChat' } : null, (msg) => {
    if (msg.channel !== 'otcChat') return;
    const m = msg.data;
    qc.setQueryData<OtcChatMessage[]>(otcKeys.messages(userId, m.orderId), (old) => (old ? appendMessage(old, m) : old));
    onChat?.(m);
    if (!m.mine) void qc.invalidateQueries({ queryKey: ['otc', userId, 'orders'] });
  });
}
