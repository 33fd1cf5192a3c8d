/**
 * Side menu (spec section 2): theme toggle; nickname or masked phone/email; UID shortened
 * to its first and last 5 characters with copy ('Copy failed, please retry' when there is none);
 * shortcuts deposit / withdraw / transfer; list items. Payment methods needs real-name verification
 * (cardState PASS), else a prompt leads to /realname. Going back from personalCenter, accountCenter,
 * setting, payment, customer or about reopens the menu (useReopenOnReturn).
 */
import { Badge, Button, Dialog, List, Popup, Switch } from 'antd-mobile';
import {
  BellOutline,
  CheckShieldOutline,
  FileOutline,
  GiftOutline,
  InformationCircleOutline,
  MessageOutline,
  PayCircleOutline,
  TransportQRcodeOutline,
  QuestionCircleOutline,
  SendOutline,
  SetOutline,
  UserCircleOutline,
  UserSetOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore } from '../../../shared/storage';
import { logout, useMember, useSupportState } from '../../../shared/session';
import { maskAccount, shortUid } from '../../../shared/format';
import { showToast } from '../../../shared/api-client';
import { useRequireLogin } from '../../../shared/guards';
import { useInboxUnread } from '../../../shared/inbox-api';
import { copyText } from '../../../shared/clipboard';
import { REOPEN_MENU_FROM } from '../hooks/use-reopen-on-return';
import '../menu.css';

interface Item {
  key: string;
  to: string;
  icon: ReactNode;
  login?: boolean;
}

const ITEMS: Item[] = [
  { key: 'personalCenter', to: '/personalCenter', icon: <CheckShieldOutline />, login: true },
  { key: 'accountCenter', to: '/accountCenter', icon: <UserSetOutline />, login: true },
  { key: 'message', to: '/message', icon: <BellOutline />, login: true },
  { key: 'setting', to: '/setting', icon: <SetOutline /> },
  { key: 'payment', to: '/payment', icon: <PayCircleOutline />, login: true },
  { key: 'otc', to: '/transaction/transactionFabi', icon: <TransportQRcodeOutline /> },
  { key: 'customer', to: '/customer', icon: <MessageOutline /> },
  { key: 'helpCenter', to: '/helpCenter', icon: <QuestionCircleOutline /> },
  { key: 'about', to: '/about', icon: <InformationCircleOutline /> },
  { key: 'share', to: '/downloadApp', icon: <SendOutline /> },
  { key: 'invite', to: '/invitation', icon: <GiftOutline />, login: true },
];

/**
 * The side menu; mounted by the app shell (lazily, on first opening), opened via
 * useUiStore().openSideMenu(). The reopen-on-return rule runs in the shell (useReopenOnReturn).
 */
export default function SideMenu() {
  const { t } = useTranslation('menu');
  const navigate = useNavigate();
  const location = useLocation();
  const open = useUiStore((s) => s.sideMenuOpen);
  const close = useUiStore((s) => s.closeSideMenu);
  const setReturn = useUiStore((s) => s.setSideMenuReturnPath);
  const theme = useAppStore((s) => s.theme);
  const toggleTheme = useAppStore((s) => s.toggleTheme);
  const account = useAppStore((s) => s.phone);
  const { member, isLogin } = useMember();
  const requireLogin = useRequireLogin();
  // Unread customer-service replies: the count beside the item.
  const supportUnread = useSupportState()?.unread ?? 0;
  const unread = useInboxUnread()?.total ?? 0;

  const go = (to: string) => {
    const base = '/' + (to.split('/')[1] ?? '');
    setReturn(REOPEN_MENU_FROM.includes(base) ? location.pathname : null);
    close();
    navigate(to);
  };

  const onItem = (it: Item) => {
    if (it.login && !isLogin) {
      close();
      requireLogin();
      return;
    }
    if (it.key === 'payment' && member?.cardState !== 'PASS') {
      void Dialog.confirm({ content: t('needRealName'), confirmText: t('toRealName'), cancelText: t('common:cancel') }).then((ok) => ok && go('/realname'));
      return;
    }
    go(it.to);
  };

  const shortcut = (to: string) => {
    if (!isLogin) {
      close();
      requireLogin();
      return;
    }
    go(to);
  };

  const copyUid = async () => {
    const uid = member?.uuid ?? '';
    if (!uid || !(await copyText(uid))) {
      showToast(t('common:copyFailed'));
      return;
    }
    showToast(t('common:copied'));
  };

  const display = member?.nickName || maskAccount(member?.mail || member?.phone || account);

  return (
    <Popup visible={open} onMaskClick={close} position="left" bodyClassName="menu-body" aria-label={t('title')}>
      <div className="menu" role="dialog" aria-label={t('title')}>
        <div className="menu-top">
          <div className="menu-theme">
            <span>{theme === 'night' ? t('night') : t('day')}</span>
            <Switch checked={theme === 'night'} onChange={toggleTheme} aria-label={t('nightMode')} />
          </div>
          <div className="menu-user">
            <UserCircleOutline className="menu-avatar" />
            {isLogin ? (
              <div className="menu-user-info">
                <div className="menu-name">{display || '--'}</div>
                <button type="button" className="menu-uid num" onClick={() => void copyUid()} aria-label={t('copyUid')}>
                  UID: {shortUid(member?.uuid) || '--'} <FileOutline />
                </button>
                {member && !member.nickName && (
                  <button type="button" className="menu-set-nick" onClick={() => useUiStore.getState().openNicknameDialog()}>
                    {t('setNickname')}
                  </button>
                )}
              </div>
            ) : (
              <div className="menu-user-info">
                <div className="menu-name">{t('welcome')}</div>
                <div className="menu-login-row">
                  <Button size="small" color="primary" onClick={() => go('/login')}>
                    {t('login')}
                  </Button>
                  <Button size="small" onClick={() => go('/register')}>
                    {t('register')}
                  </Button>
                </div>
              </div>
            )}
          </div>
          <div className="menu-shortcuts">
            {(
              [
                ['deposit', '/assets/coinCharging'],
                ['withdraw', '/assets/withdrawCoin'],
                ['transfer', '/assets/transfer'],
              ] as const
            ).map(([k, to]) => (
              <button type="button" key={k} onClick={() => shortcut(to)}>
                <span className={`menu-sc-icon sc-${k}`} aria-hidden="true" />
                {t(k)}
              </button>
            ))}
          </div>
        </div>
        <List className="menu-list">
          {ITEMS.map((it) => (
            <List.Item
              key={it.key}
              prefix={<span className="menu-item-icon">{it.icon}</span>}
              extra={
                it.key === 'customer' && supportUnread > 0 ? (
                  <Badge content={supportUnread} />
                ) : it.key === 'message' && unread > 0 ? (
                  <span className="menu-badge num">{unread > 99 ? '99+' : unread}</span>
                ) : undefined
              }
              onClick={() => onItem(it)}
            >
              {t(`items.${it.key}`)}
            </List.Item>
          ))}
        </List>
        {isLogin && (
          <div className="menu-logout">
            <Button
              block
              fill="outline"
              onClick={() => {
                void Dialog.confirm({ content: t('logoutConfirm'), cancelText: t('common:cancel'), confirmText: t('logout') }).then(async (ok) => {
                  if (!ok) return;
                  await logout();
                  navigate('/', { replace: true });
                });
              }}
            >
              {t('logout')}
            </Button>
          </div>
        )}
      </div>
    </Popup>
  );
}
