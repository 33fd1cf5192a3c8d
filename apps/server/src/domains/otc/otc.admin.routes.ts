/**
 * Console routes of peer-to-peer fiat trading (packages/api otc.ts OTC_ADMIN_PATHS), plus GET admin/otc/image (an
 * order's image for operators). Every role with `view` reads; merchant review, suspension and closing an ad need
 * `user_freeze` (compliance, admin); resolving an appeal moves money and needs `wallet_decide` (finance, admin). Each
 * action is an engine command carrying its audit record (the projector writes the audit_log row with it).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdminCloseAdBody,
  AdminOtcAdsQuery,
  AdminOtcMerchant,
  AdminOtcMerchantPage,
  AdminOtcMerchantsQuery,
  AdminOtcOrderDetail,
  AdminOtcOrdersQuery,
  Envelope,
  OrderIdQuery,
  OTC_ADMIN_PATHS,
  OtcAd,
  OtcAdPage,
  Paged,
  ResolveAppealBody,
  ReviewMerchantBody,
  SetMerchantStatusBody,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { actorOf } from '../../platform/shared/operator';
import { OtcImageQuery } from './otc.routes';
import type { OtcService } from './otc.service';

const TAGS = ['admin'];
const ADMIN_HEADERS = Type.Object({ 'x-admin-token': Type.Optional(Type.String({ maxLength: 128 })) });
/** The console's order list: the detail without the chat (messages: []). */
export const AdminOtcOrderPage = Paged(AdminOtcOrderDetail);

/** The console's OTC routes over the OTC service. */
export default function otcAdminRoutes({ otc }: { otc: OtcService }): FastifyPluginAsync {
  return async function otcAdminRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireOperator } = app; // the shared session checks, decorated by main/app.ts
    const view = requireOperator('view');
    const moderate = requireOperator('user_freeze');
    const decide = requireOperator('wallet_decide');

    app.get(
      `/api/${OTC_ADMIN_PATHS.merchants}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'OTC merchants (optionally of a state), newest change first',
          headers: ADMIN_HEADERS,
          querystring: AdminOtcMerchantsQuery,
          response: { 200: Envelope(AdminOtcMerchantPage) },
        },
      },
      async (req) => ok(await otc.adminMerchants(req.query.state, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.post(
      `/api/${OTC_ADMIN_PATHS.reviewMerchant}`,
      {
        preHandler: moderate,
        schema: {
          tags: TAGS,
          summary: 'Approve or reject a merchant application (a rejection releases the deposit)',
          headers: ADMIN_HEADERS,
          body: ReviewMerchantBody,
          response: { 200: Envelope(AdminOtcMerchant) },
        },
      },
      async (req) => ok(await otc.reviewMerchant(actorOf(req), req.body.userId, req.body.approve, req.body.reason)),
    );

    app.post(
      `/api/${OTC_ADMIN_PATHS.setMerchantStatus}`,
      {
        preHandler: moderate,
        schema: {
          tags: TAGS,
          summary: 'Suspend or reinstate a merchant, with the reason',
          headers: ADMIN_HEADERS,
          body: SetMerchantStatusBody,
          response: { 200: Envelope(AdminOtcMerchant) },
        },
      },
      async (req) => ok(await otc.setMerchantStatus(actorOf(req), req.body.userId, req.body.status, req.body.reason)),
    );

    app.get(
      `/api/${OTC_ADMIN_PATHS.ads}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Ads (optionally by status and user), newest first',
          headers: ADMIN_HEADERS,
          querystring: AdminOtcAdsQuery,
          response: { 200: Envelope(OtcAdPage) },
        },
      },
      async (req) =>
        ok(
          await otc.adminAds(
            { ...(req.query.status ? { status: req.query.status } : {}), ...(req.query.userId ? { userId: req.query.userId } : {}) },
            req.query.page ?? 1,
            req.query.pageSize ?? 20,
          ),
        ),
    );

    app.post(
      `/api/${OTC_ADMIN_PATHS.closeAd}`,
      {
        preHandler: moderate,
        schema: {
          tags: TAGS,
          summary: "Close an ad (a SELL ad's remainder is released), with the reason",
          headers: ADMIN_HEADERS,
          body: AdminCloseAdBody,
          response: { 200: Envelope(OtcAd) },
        },
      },
      async (req) => ok(await otc.closeAd(actorOf(req), req.body.adId, req.body.reason)),
    );

    app.get(
      `/api/${OTC_ADMIN_PATHS.orders}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'Orders (optionally by state: APPEAL = the appeal queue; by user on either side), newest first',
          headers: ADMIN_HEADERS,
          querystring: AdminOtcOrdersQuery,
          response: { 200: Envelope(AdminOtcOrderPage) },
        },
      },
      async (req) =>
        ok(
          await otc.adminOrders(
            { ...(req.query.state ? { state: req.query.state } : {}), ...(req.query.userId ? { userId: req.query.userId } : {}) },
            req.query.page ?? 1,
            req.query.pageSize ?? 20,
          ),
        ),
    );

    app.get(
      `/api/${OTC_ADMIN_PATHS.orderDetail}`,
      {
        preHandler: view,
        schema: {
          tags: TAGS,
          summary: 'An order with both sides, the payment details, the appeal, the chat and the evidence',
          headers: ADMIN_HEADERS,
          querystring: OrderIdQuery,
          response: { 200: Envelope(AdminOtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.adminOrderDetail(req.query.orderId)),
    );

    app.post(
      `/api/${OTC_ADMIN_PATHS.resolveAppeal}`,
      {
        preHandler: decide,
        schema: {
          tags: TAGS,
          summary: 'Resolve an appeal: RELEASE to the buyer or RETURN to the seller, with the reason shown to both',
          headers: ADMIN_HEADERS,
          body: ResolveAppealBody,
          response: { 200: Envelope(AdminOtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.resolveAppeal(actorOf(req), req.body.orderId, req.body.outcome, req.body.reason)),
    );

    app.get(
      '/api/admin/otc/image',
      {
        preHandler: view,
        schema: { tags: TAGS, summary: 'An image of an order (payment QR code, proof, evidence, chat)', headers: ADMIN_HEADERS, querystring: OtcImageQuery },
      },
      async (req, reply) => {
        const img = await otc.image({ operatorId: actorOf(req).id.toString() }, req.query.orderId, req.query.imageId);
        return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
      },
    );
  };
}
