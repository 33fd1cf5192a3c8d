/**
 * The console's frame: the side menu (consoleMenu: each feature declares its entries, label key, icon, order and the
 * permission without which the entry is hidden, in features/<feature>/<feature>.console.tsx), the header with the
 * page's title, the operator, the language switch, the light/dark switch and logout; the page in the middle.
 */
import { Button, Layout as AntLayout, Menu, Segmented, Space, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout } from '../features/auth/api/logout';
import { LanguageSelect } from '../shared/LanguageSelect';
import { can } from '../shared/permissions';
import { useSession } from '../shared/session';
import { setTheme, useTheme } from '../shared/theme';
import { consoleMenu } from './console-features';

export function Layout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const logout = useLogout();
  const mode = useTheme();
  const { token } = theme.useToken();
  const selected = '/' + (location.pathname.split('/')[1] ?? 'users');
  const items = consoleMenu.filter((e) => !e.permission || can(session, e.permission)).map((e) => ({ key: e.path, icon: e.icon, label: t(e.label) }));
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
