/**
 * /accountCenter (spec section 2 "Account centre"): phone, email, Google authenticator, login password and
 * transaction password, each with its state and action; the 24 h withdrawal lock with its end time while it lasts;
 * links to the signed-in devices and the account activity (as Binance), and to API management. Going back reopens the side menu (the
 * menu's useReopenOnReturn). Logged out, the page asks to log in.
 */
import { List, Tag } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { formatDateTime } from '../../../shared/format';
import { useSecurity } from '../api/get-security';
import { WithdrawLockBanner } from '../components/WithdrawLockBanner';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import '../security.css';

/** Account centre page. */
export default function AccountCenterPage() {
  const { t } = useTranslation('security');
  return (
    <div className="sec-page">
      <PageHeader title={t('title')} />
      <LoginFirst>
        <AccountCenter />
      </LoginFirst>
    </div>
  );
}

function State({ on, text }: { on: boolean; text: string }) {
  return (
    <Tag color={on ? 'success' : 'default'} fill="outline" className="sec-state">
      {text}
    </Tag>
  );
}

function AccountCenter() {
  const { t } = useTranslation('security');
  const navigate = useNavigate();
  const q = useSecurity();
  if (q.isLoading) return <InlineLoading />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const s = q.data;
  return (
    <>
      <WithdrawLockBanner lock={s.withdrawLock} />
      <List header={t('groups.verification')} className="sec-list">
        <List.Item
          onClick={() => !s.phone && navigate(`/accountCenter/${s.mail ? 'bindSecond' : 'bind'}?type=PHONE`)}
          arrowIcon={!s.phone}
          description={s.phone ? `+${s.areaCode} ${s.phone}` : undefined}
          extra={s.phone ? <State on text={t('bound')} /> : <span className="sec-action">{t('bind')}</span>}
        >
          {t('phone')}
        </List.Item>
        <List.Item
          onClick={() => !s.mail && navigate(`/accountCenter/${s.phone ? 'bindSecond' : 'bind'}?type=EMAIL`)}
          arrowIcon={!s.mail}
          description={s.mail || undefined}
          extra={s.mail ? <State on text={t('bound')} /> : <span className="sec-action">{t('bind')}</span>}
        >
          {t('email')}
        </List.Item>
        <List.Item
          onClick={() => navigate(s.googleBound ? '/accountCenter/closeGoogle' : '/accountCenter/googleAuthenticator')}
          description={t('googleDesc')}
          extra={s.googleBound ? <State on text={t('bound')} /> : <span className="sec-action">{t('bind')}</span>}
        >
          {t('google')}
        </List.Item>
      </List>
      <List header={t('groups.passwords')} className="sec-list">
        <List.Item onClick={() => navigate('/accountCenter/change')} extra={<span className="sec-action">{t('change')}</span>}>
          {t('loginPassword')}
        </List.Item>
        <List.Item
          onClick={() => navigate(s.transPasswordSet ? '/accountCenter/postPasswordChange' : '/accountCenter/postPasswordSet')}
          description={t('transPasswordDesc')}
          // Binance's action, not a state that reads the same either way: "Change" once set, "Set up" before.
          extra={<span className="sec-action">{s.transPasswordSet ? t('change') : t('setUp')}</span>}
        >
          {t('transPassword')}
        </List.Item>
        {s.transPasswordSet && <List.Item onClick={() => navigate('/accountCenter/postPasswordForget')}>{t('forgetTransPassword')}</List.Item>}
      </List>
      <List header={t('groups.devices')} className="sec-list">
        <List.Item onClick={() => navigate('/accountCenter/devices')} description={t('devicesDesc')}>
          {t('devices')}
        </List.Item>
        <List.Item
          onClick={() => navigate('/accountCenter/activity')}
          description={s.lastLogin ? t('lastLogin', { time: formatDateTime(s.lastLogin.at), ip: s.lastLogin.ip || '--' }) : undefined}
        >
          {t('activity')}
        </List.Item>
      </List>
      <List header={t('groups.api')} className="sec-list">
        <List.Item onClick={() => navigate('/accountCenter/apiKeys')} description={t('apiKeysDesc')}>
          {t('apiKeys')}
        </List.Item>
      </List>
    </>
  );
}
