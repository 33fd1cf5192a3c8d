/** /agreement: the user registration agreement (spec section 2). */
import { LegalDoc } from '../components/LegalDoc';

/** User agreement page. */
export default function AgreementPage() {
  return <LegalDoc doc="agreement" />;
}
