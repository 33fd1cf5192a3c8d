/**
 * Layout of the five tab pages (spec section 2): the page above, the tab bar fixed at the bottom.
 * The balance tab while logged out goes to /login.
 */
import { Outlet, useLocation, useNavigate } from 'react-router';
import TabBar from 'antd-mobile/es/components/tab-bar';
import { AppOutline, HistogramOutline, PayCircleOutline, FireFill, BillOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../shared/storage';
import './layouts.css';

/** Tab keys are their paths. */
export const TABS = [
  { key: '/', label: 'tabs.home', icon: <AppOutline /> },
  { key: '/quotes', label: 'tabs.quotes', icon: <HistogramOutline /> },
  { key: '/transaction', label: 'tabs.transaction', icon: <PayCircleOutline /> },
  { key: '/contract', label: 'tabs.contract', icon: <FireFill /> },
  { key: '/assets', label: 'tabs.assets', icon: <BillOutline /> },
] as const;

/** Which tab is active for a pathname. */
export function activeTab(pathname: string): string {
  if (pathname === '/' || pathname === '/home') return '/';
  const hit = TABS.find((t) => t.key !== '/' && (pathname === t.key || pathname.startsWith(t.key + '/')));
  return hit?.key ?? '/';
}

/** The tab layout. */
export function TabLayout() {
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  return (
    <div className="ex-tab-layout">
      <main className="ex-tab-main">
        <Outlet />
      </main>
      <nav className="ex-tabbar" aria-label="tabs">
        <TabBar
          safeArea
          activeKey={activeTab(pathname)}
          onChange={(key) => {
            if (key === '/assets' && !isLogin) navigate('/login?redirect=%2Fassets');
            else navigate(key);
          }}
        >
          {TABS.map((tab) => (
            <TabBar.Item
              key={tab.key}
              icon={tab.icon}
              title={
                <span role="link" aria-label={t(tab.label)}>
                  {t(tab.label)}
                </span>
              }
            />
          ))}
        </TabBar>
      </nav>
    </div>
  );
}
