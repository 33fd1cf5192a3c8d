/** The console's language switch (zh / en), on the login page and in the header. */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { setLang, type ConsoleLang } from './i18n';

/** A small select of the two console languages; `width` in px when given. */
export function LanguageSelect({ width }: { width?: number }) {
  const { t, i18n } = useTranslation();
  return (
    <Select<ConsoleLang>
      aria-label={t('app.language')}
      size="small"
      value={i18n.language === 'en' ? 'en' : 'zh'}
      onChange={setLang}
      options={[
        { value: 'zh', label: '中文' },
        { value: 'en', label: 'English' },
      ]}
      {...(width !== undefined ? { style: { width } } : {})}
    />
  );
}
