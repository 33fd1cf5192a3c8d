/**
 * Home header (spec section 2): avatar opening the side menu, customer-service icon opening
 * /kefuWebview, language dropdown (中文 / English). The dropdown is a small own menu (closes on a
 * choice, a tap outside or Escape), not antd Popover: that one brought floating-ui into the home
 * page's first load.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { DownFill, MessageOutline, UserCircleOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore, type Lang } from '../../../shared/storage';
import { useSupportState } from '../../../shared/session';
import { useInboxUnread } from '../../../shared/inbox-api';

/** The header bar. */
export const HomeHeader = memo(function HomeHeader() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const lang = useAppStore((s) => s.currentLangue);
  const setLang = useAppStore((s) => s.setLang);
  const openMenu = useUiStore((s) => s.openSideMenu);
  // The inbox's unread badge: a dot on the avatar (the side menu lists Messages with the count).
  const inboxUnread = useInboxUnread()?.total ?? 0;
  const [langOpen, setLangOpen] = useState(false);
  // Unread customer-service replies: a dot on the icon.
  const unread = useSupportState()?.unread ?? 0;
  const langRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!langOpen) return;
    const onDown = (e: PointerEvent) => {
      if (!langRef.current?.contains(e.target as Node)) setLangOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setLangOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [langOpen]);
  const choose = (l: Lang) => {
    setLang(l);
    setLangOpen(false);
  };
  return (
    <header className="home-header">
      <button
        type="button"
        className="home-avatar"
        aria-label={inboxUnread > 0 ? `${t('openMenu')} (${t('unreadMessages', { count: inboxUnread })})` : t('openMenu')}
        onClick={openMenu}
      >
        <UserCircleOutline />
        {inboxUnread > 0 && <span className="home-avatar-dot" data-testid="unread-dot" />}
      </button>
      <div className="home-brand">
        <svg width="22" height="22" viewBox="0 0 64 64" aria-hidden="true">
          <rect width="64" height="64" rx="14" fill="var(--ex-primary)" />
          <path d="M18 40l10-12 8 8 10-14" stroke="#fff" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>{t('common:appName')}</span>
      </div>
      <div className="home-header-right">
        <div className="home-lang-wrap" ref={langRef}>
          <button
            type="button"
            className="home-lang"
            aria-label={t('language')}
            aria-haspopup="menu"
            aria-expanded={langOpen}
            onClick={() => setLangOpen((o) => !o)}
          >
            {t(`common:lang.${lang}`)} <DownFill fontSize={9} />
          </button>
          {langOpen && (
            <div role="menu" className="home-lang-menu">
              {(['zh', 'en'] as const).map((l) => (
                <button key={l} type="button" role="menuitemradio" aria-checked={lang === l} className={lang === l ? 'active' : ''} onClick={() => choose(l)}>
                  {t(`common:lang.${l}`)}
                </button>
              ))}
            </div>
          )}
        </div>
        <button
          type="button"
          className="home-icon"
          aria-label={unread > 0 ? t('customerServiceUnread', { count: unread }) : t('customerService')}
          onClick={() => navigate('/kefuWebview')}
        >
          <MessageOutline />
          {unread > 0 && <span className="home-icon-dot" aria-hidden />}
        </button>
      </div>
    </header>
  );
});
