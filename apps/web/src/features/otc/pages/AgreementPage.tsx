/**
 * /merchantAgreement and /otc365agreement: the merchant agreement and the OTC (fiat trading) terms, static locale
 * content in en and zh (issue 14 moves the texts to the console later). Paragraphs are separated by blank lines.
 */
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import '../otc.css';

/** An agreement page of `kind`. */
export function OtcAgreement({ kind }: { kind: 'merchant' | 'otc' }) {
  const { t } = useTranslation('otc');
  const body = t(`agreement.${kind}Body`);
  return (
    <div className="otc-page">
      <PageHeader title={t(`agreement.${kind}Title`)} fallback={kind === 'merchant' ? '/transaction/merchantAudit' : '/transaction/transactionFabi'} />
      <article className="otc-agreement">
        {body.split(/\n\s*\n/).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </article>
    </div>
  );
}

/** /merchantAgreement. */
export default function MerchantAgreementPage() {
  return <OtcAgreement kind="merchant" />;
}
