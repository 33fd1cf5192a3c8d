/**
 * The console's frame: the side menu (Users, KYC queue, the wallet's Withdrawals, Deposits, Hot wallet, Alerts and
 * Proof of reserves, OTC merchants, appeals and ads, the support chat and canned replies for the roles with `support`,
 * Audit log, and Operators for the admin role), the header with
 * the operator, the language switch, the light/dark switch and logout; the page in the middle.
 */
import { Button, Layout as AntLayout, Menu, Segmented, Space, Tag, Typography, theme } from 'antd';
import {
  AlertOutlined,
  AuditOutlined,
  CloudUploadOutlined,
  CustomerServiceOutlined,
  DownloadOutlined,
  FileTextOutlined,
  FundOutlined,
  GiftOutlined,
  IdcardOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  UploadOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout } from '../features/auth/api/logout';
import { LanguageSelect } from '../shared/LanguageSelect';
import { useCan } from '../shared/permissions';
import { useSession } from '../shared/session';
import { setTheme, useTheme } from '../shared/theme';

export function Layout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useLogout();
  const canOperators = useCan('operators');
  const canSupport = useCan('support');
  const mode = useTheme();
  const { token } = theme.useToken();
  const selected = '/' + (location.pathname.split('/')[1] ?? 'users');
  const items = [
    { key: '/users', icon: <UserOutlined />, label: t('nav.users') },
    { key: '/kyc', icon: <IdcardOutlined />, label: t('nav.kyc') },
    { key: '/withdrawals', icon: <UploadOutlined />, label: t('nav.withdrawals') },
    { key: '/deposits', icon: <DownloadOutlined />, label: t('nav.deposits') },
    { key: '/hot-wallet', icon: <WalletOutlined />, label: t('nav.hotWallet') },
    { key: '/alerts', icon: <AlertOutlined />, label: t('nav.alerts') },
    { key: '/reserves', icon: <SafetyCertificateOutlined />, label: t('nav.reserves') },
    { key: '/otc-merchants', icon: <ShopOutlined />, label: t('nav.otcMerchants') },
    { key: '/otc-appeals', icon: <SolutionOutlined />, label: t('nav.otcAppeals') },
    { key: '/otc-ads', icon: <NotificationOutlined />, label: t('nav.otcAds') },
    { key: '/app-versions', icon: <CloudUploadOutlined />, label: t('nav.appVersions') },
    { key: '/activities', icon: <GiftOutlined />, label: t('nav.activities') },
    { key: '/content', icon: <FileTextOutlined />, label: t('nav.content') },
    ...(canSupport
      ? [
          { key: '/support', icon: <CustomerServiceOutlined />, label: t('nav.support') },
          { key: '/support-canned', icon: <MessageOutlined />, label: t('nav.supportCanned') },
        ]
      : []),
    { key: '/earn-products', icon: <FundOutlined />, label: t('nav.earn') },
    { key: '/audit', icon: <AuditOutlined />, label: t('nav.audit') },
    ...(canOperators ? [{ key: '/operators', icon: <TeamOutlined />, label: t('nav.operators') }] : []),
  ];
  return (
    <AntLayout style={{ minHeight: '100vh' }}>
      <AntLayout.Sider width={208} theme={mode === 'dark' ? 'dark' : 'light'} style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}>
        <div className="brand">{t('app.title')}</div>
        <Menu mode="inline" theme={mode === 'dark' ? 'dark' : 'light'} selectedKeys={[selected]} items={items} onClick={(e) => navigate(e.key)} />
      </AntLayout.Sider>
      <AntLayout>
        <AntLayout.Header
          style={{
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
            padding: '0 24px',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
          }}
        >
          <Typography.Title level={4} style={{ margin: 0 }}>
            {items.find((i) => i.key === selected)?.label}
          </Typography.Title>
          <Space size="middle">
            {session && (
              <span>
                {session.operator.name} <Tag>{t(`roles.${session.operator.role}`)}</Tag>
              </span>
            )}
            <LanguageSelect width={100} />
            <Segmented
              aria-label={t('app.theme')}
              size="small"
              value={mode}
              onChange={(v) => setTheme(v as 'light' | 'dark')}
              options={[
                { value: 'light', label: t('app.light') },
                { value: 'dark', label: t('app.dark') },
              ]}
            />
            <Button size="small" onClick={() => logout.mutate(undefined, { onSettled: () => void navigate('/login', { replace: true }) })}>
              {t('app.logout')}
            </Button>
          </Space>
        </AntLayout.Header>
        <AntLayout.Content style={{ padding: 24 }}>
          <Outlet />
        </AntLayout.Content>
      </AntLayout>
    </AntLayout>
  );
}
