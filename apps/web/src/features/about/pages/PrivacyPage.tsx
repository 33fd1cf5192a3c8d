/** /aboutAgreement: the privacy policy (spec section 2). */
import { LegalDoc } from '../components/LegalDoc';

/** Privacy policy page. */
export default function PrivacyPage() {
  return <LegalDoc doc="privacy" />;
}
