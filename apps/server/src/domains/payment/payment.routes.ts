/**
 * Routes of member/payment: getPayments (GET), addPayment, updatePayment,
 * setPaymentEnabled, deletePayment (POST, form or JSON), behind requireAuth and about the caller's own methods
 * only. Thin: the rules are PaymentService's.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_PATHS, AddPaymentBody, DeletePaymentBody, Envelope, PaymentMethod, SetPaymentEnabledBody, UpdatePaymentBody } from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import type { PaymentService } from './payment.service';

const TAGS = ['payment'];
const NullResult = Envelope(Type.Null());

/** The payment method routes over the payment service. */
export default function paymentRoutes({ payments }: { payments: PaymentService }): FastifyPluginAsync {
  return async function paymentRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts

    app.get(
      `/api/${API_PATHS.getPayments}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: "The caller's payment methods (card numbers masked)", response: { 200: Envelope(Type.Array(PaymentMethod)) } },
      },
      async (req) => ok(await payments.list(req.userId)),
    );

    app.post(
      `/api/${API_PATHS.addPayment}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Add a payment method (BANK: bankName, branch, cardNo; WECHAT/ALIPAY: account, qrImageId) with the transaction password',
          body: AddPaymentBody,
          response: { 200: Envelope(Type.Object({ id: Type.String() })) },
        },
      },
      async (req) => ok(await payments.add(req.userId, req.body)),
    );

    app.post(
      `/api/${API_PATHS.updatePayment}`,
      {
        preHandler: requireAuth,
        schema: {
          tags: TAGS,
          summary: 'Replace the fields of a payment method, with the transaction password',
          body: UpdatePaymentBody,
          response: { 200: NullResult },
        },
      },
      async (req) => {
        await payments.update(req.userId, req.body);
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.setPaymentEnabled}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Enable or disable a payment method', body: SetPaymentEnabledBody, response: { 200: NullResult } },
      },
      async (req) => {
        await payments.setEnabled(req.userId, req.body.id, req.body.enabled);
        return ok(null);
      },
    );

    app.post(
      `/api/${API_PATHS.deletePayment}`,
      {
        preHandler: requireAuth,
        schema: { tags: TAGS, summary: 'Delete a payment method, with the transaction password', body: DeletePaymentBody, response: { 200: NullResult } },
      },
      async (req) => {
        await payments.remove(req.userId, req.body.id, req.body.transPassword);
        return ok(null);
      },
    );
  };
}
