/** /payment/weixin: add or edit WeChat Pay (PaymentFormPage). */
import { PaymentFormPage } from './PaymentFormPage';

/** WeChat page. */
export default function WeixinPage() {
  return <PaymentFormPage payType="WECHAT" />;
}
