/** /aboutAgreement: the privacy policy (spec section 2), edited in the console (page `privacy`). */
import { useTranslation } from 'react-i18next';
import { ContentDoc } from '../../../shared/content/ContentDoc';

/** Privacy policy page. */
export default function PrivacyPage() {
  const { t } = useTranslation('legal');
  return <ContentDoc slug="privacy" title={t('privacyPolicy')} />;
}
