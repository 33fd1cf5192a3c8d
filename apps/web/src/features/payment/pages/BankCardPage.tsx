/** /payment/bankCard: add or edit a bank card (PaymentFormPage). */
import { PaymentFormPage } from './PaymentFormPage';

/** Bank card page. */
export default function BankCardPage() {
  return <PaymentFormPage payType="BANK" />;
}
