/** /agreement: the user registration agreement (spec section 2), edited in the console (page `agreement`). */
import { useTranslation } from 'react-i18next';
import { ContentDoc } from '../../../shared/content/ContentDoc';

/** User agreement page. */
export default function AgreementPage() {
  const { t } = useTranslation('legal');
  return <ContentDoc slug="agreement" title={t('userAgreement')} />;
}
