/** The payment module (platform/domain-module.ts): payment methods (bank card, WeChat, Alipay) of verified users. */
import type { DomainModule } from '../../platform/domain-module';
import paymentRoutes from './payment.routes';

export const paymentModule: DomainModule<unknown> = {
  name: 'payment',
  routes: [paymentRoutes],
};
