/**
 * /personalCenter (spec sections 2 and 3): account, phone, UID, the ID number masked, and the state of
 * basic and advanced verification with the way to /realname and /realname1. Going back reopens the side menu (the
 * menu's useReopenOnReturn).
 */
import { List, Tag } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { maskAccount } from '../../../shared/format';
import { useKyc, useMember, type KycState } from '../../../shared/session';
import { InlineLoading, PageHeader } from '../../../shared/ui';
import '../kyc.css';

const TAG_COLOR: Record<KycState, 'default' | 'warning' | 'success' | 'danger'> = { NONE: 'default', PENDING: 'warning', PASS: 'success', REJECTED: 'danger' };

/** Personal centre page. */
export default function PersonalCenterPage() {
  const { t } = useTranslation('kyc');
  const navigate = useNavigate();
  const { member, isLoading } = useMember();
  const kyc = useKyc();
  const basic = kyc.data?.basic.state ?? 'NONE';
  const advanced = kyc.data?.advanced.state ?? 'NONE';
  const state = (s: KycState) => (
    <Tag color={TAG_COLOR[s]} fill="outline">
      {t(`state.${s}`)}
    </Tag>
  );
  return (
    <div className="kyc-page">
      <PageHeader title={t('personalTitle')} />
      {isLoading || kyc.isLoading ? (
        <InlineLoading />
      ) : (
        <>
          <List header={t('profile')} className="kyc-list">
            <List.Item extra={maskAccount(member?.mail || member?.phone) || '--'} arrowIcon={false}>
              {t('account')}
            </List.Item>
            <List.Item extra={member?.phone ? maskAccount(member.phone) : t('notBound')} arrowIcon={false}>
              {t('phone')}
            </List.Item>
            <List.Item extra={<span className="num kyc-uid">{member?.uuid || '--'}</span>} arrowIcon={false}>
              UID
            </List.Item>
            <List.Item extra={<span className="num">{member?.cardNo || kyc.data?.basic.idNumber || '--'}</span>} arrowIcon={false}>
              {t('idNumber')}
            </List.Item>
          </List>
          <List header={t('verification')} className="kyc-list">
            <List.Item onClick={() => navigate('/realname')} description={t('basicDesc')} extra={state(basic)}>
              {t('basicTitle')}
            </List.Item>
            <List.Item onClick={() => navigate('/realname1')} description={t('advancedDesc')} extra={state(advanced)}>
              {t('advancedTitle')}
            </List.Item>
          </List>
        </>
      )}
    </div>
  );
}
