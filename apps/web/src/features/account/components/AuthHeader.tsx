/** Header of the account screens: close (back) on the left, language switch on the right. */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CloseOutline, LeftOutline } from 'antd-mobile-icons';
import { useAppStore } from '../../../shared/storage';
import './account.css';

/** Top bar of login/register/forget. `close` shows an X that goes home instead of a back arrow. */
export function AuthHeader({ close }: { close?: boolean }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const lang = useAppStore((s) => s.currentLangue);
  const setLang = useAppStore((s) => s.setLang);
  return (
    <div className="ex-auth-header">
      <button
        type="button"
        className="ex-icon-btn"
        aria-label={close ? t('common:close') : t('common:back')}
        onClick={() => (close ? navigate('/', { replace: true }) : window.history.length > 1 ? navigate(-1) : navigate('/login'))}
      >
        {close ? <CloseOutline fontSize={24} /> : <LeftOutline fontSize={22} />}
      </button>
      <button type="button" className="ex-lang-btn" aria-label={t('switchLanguage')} onClick={() => setLang(lang === 'zh' ? 'en' : 'zh')}>
        {lang === 'zh' ? 'English' : '中文'}
      </button>
    </div>
  );
}
