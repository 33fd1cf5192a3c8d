/** The payment module (platform/domain-module.ts): payment methods (bank card, WeChat, Alipay) of verified users. */
import type { AppContext, DomainModule, DomainServices } from '../../platform/domain-module';
import type { PlatformContext } from '../../platform/platform-context';
import { createPaymentService, type PaymentService } from './payment.service';
import paymentRoutes from './payment.routes';

/** What the payment service is built from (its own ports of the KYC, uploads and security services). */
type PaymentDeps = Parameters<typeof createPaymentService>[0];

declare module '../../platform/domain-module' {
  interface DomainServices {
    payments: PaymentService;
  }
}

export const paymentModule: DomainModule<
  PlatformContext & { kyc: PaymentDeps['kyc']; uploads: PaymentDeps['uploads']; security: ReturnType<PaymentDeps['security']> },
  Pick<DomainServices, 'payments'>
> = {
  name: 'payment',
  after: ['kyc', 'uploads'],
  create: (ctx) => ({
    // the transaction password is checked by the security service (built later: read lazily)
    payments: createPaymentService({ db: ctx.db, kyc: ctx.kyc, uploads: ctx.uploads, security: () => ctx.security }),
  }),
  routes: (ctx) => [paymentRoutes({ payments: ctx.payments })],
};
export default paymentModule satisfies DomainModule<AppContext>;
