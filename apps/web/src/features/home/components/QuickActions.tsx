/**
 * Quick buttons (spec section 2): quick buy -> /transaction, quick deposit -> /assets/coinCharging
 * (login first), futures trading -> /contract, activity centre -> /activity; plus the futures promo
 * link to /contract.
 */
import { memo } from 'react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { RightOutline } from 'antd-mobile-icons';
import { useRequireLogin } from '../../../shared/guards';

function Icon({ children, bg }: { children: ReactNode; bg: string }) {
  return (
    <span className="home-quick-icon" style={{ background: bg }} aria-hidden="true">
      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </svg>
    </span>
  );
}

/** The four quick buttons. */
export const QuickActions = memo(function QuickActions() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const requireLogin = useRequireLogin();
  const items = [
    {
      key: 'buy',
      to: '/transaction',
      icon: (
        <Icon bg="linear-gradient(135deg,#2f80ff,#1e5bff)">
          <path d="M4 7h16l-2 9H6z" />
          <circle cx="9" cy="20" r="1" />
          <circle cx="17" cy="20" r="1" />
        </Icon>
      ),
    },
    {
      key: 'deposit',
      to: '/assets/coinCharging',
      login: true,
      icon: (
        <Icon bg="linear-gradient(135deg,#14c38e,#0aa774)">
          <path d="M12 4v12M6 10l6 6 6-6M5 20h14" />
        </Icon>
      ),
    },
    {
      key: 'futures',
      to: '/contract',
      icon: (
        <Icon bg="linear-gradient(135deg,#ffb020,#f08c00)">
          <path d="M3 17l6-6 4 4 8-8M15 7h6v6" />
        </Icon>
      ),
    },
    {
      key: 'activity',
      to: '/activity',
      icon: (
        <Icon bg="linear-gradient(135deg,#a066ff,#7b3fe4)">
          <path d="M4 11h16v9H4zM12 11v9M2 7h20v4H2zM12 7C10 3 7 3 7 5s5 2 5 2 5 0 5-2-3-2-5 2" />
        </Icon>
      ),
    },
  ];
  return (
    <>
      <nav className="home-quick" aria-label={t('quickActions')}>
        {items.map((it) => (
          <button
            type="button"
            key={it.key}
            className="home-quick-item"
            onClick={() => {
              if (it.login && !requireLogin()) return;
              navigate(it.to);
            }}
          >
            {it.icon}
            <span>{t(`quick.${it.key}`)}</span>
          </button>
        ))}
      </nav>
      <button type="button" className="home-promo" onClick={() => navigate('/contract')}>
        <div>
          <div className="home-promo-title">{t('promoTitle')}</div>
          <div className="home-promo-sub">{t('promoSub')}</div>
        </div>
        <span className="home-promo-go">
          {t('promoGo')} <RightOutline />
        </span>
      </button>
    </>
  );
});
