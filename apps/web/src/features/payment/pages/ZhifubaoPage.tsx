/** /payment/zhifubao: add or edit Alipay (PaymentFormPage). */
import { PaymentFormPage } from './PaymentFormPage';

/** Alipay page. */
export default function ZhifubaoPage() {
  return <PaymentFormPage payType="ALIPAY" />;
}
