/**
 * Home header (spec section 2): avatar opening the side menu, customer-service icon opening
 * /kefuWebview, language dropdown (中文 / English).
 */
import { useState } from 'react';
import { Popover } from 'antd-mobile';
import { DownFill, MessageOutline, UserCircleOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAppStore, useUiStore, type Lang } from '../../../shared/storage';

/** The header bar. */
export function HomeHeader() {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const lang = useAppStore((s) => s.currentLangue);
  const setLang = useAppStore((s) => s.setLang);
  const openMenu = useUiStore((s) => s.openSideMenu);
  const [langOpen, setLangOpen] = useState(false);
  const choose = (l: Lang) => {
    setLang(l);
    setLangOpen(false);
  };
  return (
    <header className="home-header">
      <button type="button" className="home-avatar" aria-label={t('openMenu')} onClick={openMenu}>
        <UserCircleOutline />
      </button>
      <div className="home-brand">
        <svg width="22" height="22" viewBox="0 0 64 64" aria-hidden="true">
          <rect width="64" height="64" rx="14" fill="var(--ex-primary)" />
          <path d="M18 40l10-12 8 8 10-14" stroke="#fff" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>{t('common:appName')}</span>
      </div>
      <div className="home-header-right">
        <Popover
          visible={langOpen}
          onVisibleChange={setLangOpen}
          placement="bottom-end"
          trigger="click"
          content={
            <div role="menu" className="home-lang-menu">
              {(['zh', 'en'] as const).map((l) => (
                <button key={l} type="button" role="menuitemradio" aria-checked={lang === l} className={lang === l ? 'active' : ''} onClick={() => choose(l)}>
                  {t(`common:lang.${l}`)}
                </button>
              ))}
            </div>
          }
        >
          <button type="button" className="home-lang" aria-label={t('language')} aria-haspopup="menu">
            {t(`common:lang.${lang}`)} <DownFill fontSize={9} />
          </button>
        </Popover>
        <button type="button" className="home-icon" aria-label={t('customerService')} onClick={() => navigate('/kefuWebview')}>
          <MessageOutline />
        </button>
      </div>
    </header>
  );
}
