/**
 * /merchantAgreement and /otc365agreement: the merchant agreement and the OTC (fiat trading) terms, edited in the
 * console (pages `merchant` and `otc`).
 */
import { useTranslation } from 'react-i18next';
import { ContentDoc } from '../../../shared/content/ContentDoc';

/** An agreement page of `kind`. */
export function OtcAgreement({ kind }: { kind: 'merchant' | 'otc' }) {
  const { t } = useTranslation('otc');
  return (
    <ContentDoc
      slug={kind}
      title={t(`agreement.${kind}Title`)}
      fallback={kind === 'merchant' ? '/transaction/merchantAudit' : '/transaction/transactionFabi'}
    />
  );
}

/** /merchantAgreement. */
export default function MerchantAgreementPage() {
  return <OtcAgreement kind="merchant" />;
}
