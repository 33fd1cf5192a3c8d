/** Refetches the assets when the private WebSocket channel pushes a balance change (while mounted and logged in). */
import { useQueryClient } from '@tanstack/react-query';
import { useWsChannel } from '../../../shared/ws-client';
import { useAppStore } from '../../../shared/storage';
import { assetsQueryKey } from '../api/get-assets';

/** Subscribes to 'balances' and invalidates the assets query on each push. */
export function useBalancePushes(): void {
  const qc = useQueryClient();
  const userId = useAppStore((s) => s.userId);
  const isLogin = useAppStore((s) => s.isLogin);
  useWsChannel(isLogin ? { channel: 'balances' } : null, (msg) => {
    if (msg.channel === 'balances') void qc.invalidateQueries({ queryKey: assetsQueryKey(userId) });
  });
}
