/** /otc365agreement: the fiat trading terms (OtcAgreement, kind otc). */
import { OtcAgreement } from './AgreementPage';

/** The OTC terms page. */
export default function Otc365AgreementPage() {
  return <OtcAgreement kind="otc" />;
}
