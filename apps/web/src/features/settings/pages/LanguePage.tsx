/** /langue: choose the interface language, Chinese or English (spec section 1); stored as currentLangue. */
import { CheckOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import { useAppStore, type Lang } from '../../../shared/storage';
import '../settings.css';

/** Language page. */
export default function LanguePage() {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  const lang = useAppStore((s) => s.currentLangue);
  const setLang = useAppStore((s) => s.setLang);
  return (
    <div className="settings">
      <PageHeader title={t('language')} fallback="/setting" />
      <div className="settings-radios" role="radiogroup" aria-label={t('language')}>
        {(['zh', 'en'] as Lang[]).map((l) => (
          <button
            type="button"
            key={l}
            role="radio"
            aria-checked={lang === l}
            onClick={() => {
              setLang(l);
              navigate(-1);
            }}
          >
            <span>{t(`common:lang.${l}`)}</span>
            {lang === l && <CheckOutline color="var(--ex-primary)" fontSize={18} />}
          </button>
        ))}
      </div>
    </div>
  );
}
