/**
 * /accountCenter/devices (the sessions and security log, as Binance's device management): the signed-in
 * devices (browser and OS, IP, signed in, last seen), this one marked; revoke ends that session everywhere. Revoking
 * the current one is logging out, so it is offered as such.
 */
import { Button, List, Tag } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { loadFeedback } from '../../../shared/ui/feedback';
import { formatDateTime } from '../../../shared/format';
import { logout } from '../../../shared/session';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { showToast } from '../../../shared/api-client';
import { useRevokeSession, useSessions } from '../api/sessions';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import '../security.css';

/** Devices page. */
export default function DevicesPage() {
  const { t } = useTranslation('security');
  return (
    <div className="sec-page">
      <PageHeader title={t('devices')} fallback="/accountCenter" />
      <LoginFirst>
        <Devices />
      </LoginFirst>
    </div>
  );
}

function Devices() {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const q = useSessions();
  const revoke = useRevokeSession();
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  if (q.data.length === 0) return <EmptyState />;
  const onRevoke = async (id: string, current: boolean) => {
    const ok = await (
      await loadFeedback()
    ).Dialog.confirm({ content: t(current ? 'revokeCurrentConfirm' : 'revokeConfirm'), confirmText: t('revoke'), cancelText: t('common:cancel') });
    if (!ok) return;
    if (current) {
      await logout();
      navigate('/login', { replace: true });
      return;
    }
    try {
      await revoke.mutateAsync(id);
      showToast(t('revoked'));
    } catch {
      /* toasted */
    }
  };
  return (
    <List className="sec-list">
      {q.data.map((s) => (
        <List.Item
          key={s.id}
          title={s.current ? <Tag color="primary">{t('thisDevice')}</Tag> : undefined}
          description={
            <div className="sec-meta">
              <div>IP {s.ip || '--'}</div>
              <div>{t('signedInAt', { time: formatDateTime(s.createdAt) })}</div>
              <div>{t('lastSeenAt', { time: formatDateTime(s.lastSeenAt) })}</div>
            </div>
          }
          extra={
            <Button size="mini" color={s.current ? 'default' : 'danger'} fill="outline" onClick={() => void onRevoke(s.id, s.current)}>
              {s.current ? t('logoutHere') : t('revoke')}
            </Button>
          }
          arrowIcon={false}
        >
          {s.device || t('unknownDevice')}
        </List.Item>
      ))}
    </List>
  );
}
