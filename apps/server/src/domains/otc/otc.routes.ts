/**
 * Routes of the app's peer-to-peer fiat trading (packages/api otc.ts OTC_PATHS), plus GET otc/otc/image (an image of
 * an order: the seller's payment QR code, the payment proof, appeal evidence, chat images; for the order's two sides
 * only). Public: getConfig, getAds, getAd; everything else behind requireAuth. Thin: validation by the shared TypeBox
 * schemas, rules in OtcService.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  AdIdQuery,
  AppealBody,
  ApplyMerchantBody,
  CancelAppealBody,
  CancelOtcOrderBody,
  Envelope,
  GetOtcAdsQuery,
  GetOtcMessagesQuery,
  GetOtcOrdersQuery,
  LeaveMerchantBody,
  MarkPaidBody,
  OrderIdQuery,
  OTC_PATHS,
  OtcAd,
  OtcAdPage,
  OtcChatMessage,
  OtcConfigView,
  OtcMerchantView,
  OtcOrderDetail,
  OtcOrderPage,
  PublishAdBody,
  ReleaseBody,
  SendOtcMessageBody,
  SetAdStatusBody,
  TakeAdBody,
  UpdateAdBody,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import type { OtcService } from './otc.service';

const TAGS = ['otc'];
/** Query of the order image route. */
export const OtcImageQuery = Type.Object({ orderId: Type.String({ pattern: '^[0-9]{1,20}$' }), imageId: Type.String({ minLength: 1, maxLength: 64 }) });
/** Path of the order image route (relative to /api/). */
export const OTC_IMAGE_PATH = 'otc/otc/image';

/** The app's OTC routes over the OTC service. */
export default function otcRoutes({ otc }: { otc: OtcService }): FastifyPluginAsync {
  return async function otcRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const { requireAuth } = app; // the shared session checks, decorated by main/app.ts
    const auth = { preHandler: requireAuth };

    app.get(
      `/api/${OTC_PATHS.getConfig}`,
      { schema: { tags: TAGS, summary: 'OTC settings and the index price (CNY per USDT)', response: { 200: Envelope(OtcConfigView) } } },
      async () => ok(otc.config()),
    );

    app.get(
      `/api/${OTC_PATHS.getAds}`,
      {
        schema: {
          tags: TAGS,
          summary: "Online ads for the user's side (BUY lists SELL ads, cheapest first; SELL lists BUY ads, dearest first)",
          querystring: GetOtcAdsQuery,
          response: { 200: Envelope(OtcAdPage) },
        },
      },
      async (req) => ok(await otc.ads(req.query)),
    );

    app.get(`/api/${OTC_PATHS.getAd}`, { schema: { tags: TAGS, summary: 'One ad', querystring: AdIdQuery, response: { 200: Envelope(OtcAd) } } }, async (req) =>
      ok(await otc.ad(req.query.adId)),
    );

    app.get(
      `/api/${OTC_PATHS.getMerchant}`,
      { ...auth, schema: { tags: TAGS, summary: 'Your merchant record and 30-day stats', response: { 200: Envelope(OtcMerchantView) } } },
      async (req) => ok(await otc.merchant(req.userId)),
    );

    app.post(
      `/api/${OTC_PATHS.applyMerchant}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Apply to be a merchant: verified, an enabled payment method, the deposit held from the OTC account',
          body: ApplyMerchantBody,
          response: { 200: Envelope(OtcMerchantView) },
        },
      },
      async (req) => ok(await otc.applyMerchant(req.userId, req.body.transPassword)),
    );

    app.post(
      `/api/${OTC_PATHS.leaveMerchant}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Stop being a merchant (every ad closed, no open order): the deposit is released',
          body: LeaveMerchantBody,
          response: { 200: Envelope(OtcMerchantView) },
        },
      },
      async (req) => ok(await otc.leaveMerchant(req.userId, req.body.transPassword)),
    );

    app.get(
      `/api/${OTC_PATHS.getMyAds}`,
      { ...auth, schema: { tags: TAGS, summary: 'Your ads (every status), newest first', response: { 200: Envelope(Type.Array(OtcAd)) } } },
      async (req) => ok(await otc.myAds(req.userId)),
    );

    app.post(
      `/api/${OTC_PATHS.publishAd}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Publish an ad (a SELL ad holds its quantity from your OTC account)',
          body: PublishAdBody,
          response: { 200: Envelope(OtcAd) },
        },
      },
      async (req) => ok(await otc.publishAd(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.updateAd}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: "Edit your ad: terms and the remaining quantity (a SELL ad's hold follows)",
          body: UpdateAdBody,
          response: { 200: Envelope(OtcAd) },
        },
      },
      async (req) => ok(await otc.updateAd(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.setAdStatus}`,
      {
        ...auth,
        schema: { tags: TAGS, summary: 'Pause, resume or close your ad (CLOSED is final)', body: SetAdStatusBody, response: { 200: Envelope(OtcAd) } },
      },
      async (req) => ok(await otc.setAdStatus(req.userId, req.body.adId, req.body.status)),
    );

    app.post(
      `/api/${OTC_PATHS.takeAd}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: "Take an ad: an order at the ad's price, the seller's coins in escrow",
          body: TakeAdBody,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.takeAd(req.userId, req.body)),
    );

    app.get(
      `/api/${OTC_PATHS.getOrders}`,
      {
        ...auth,
        schema: { tags: TAGS, summary: 'Your orders of a tab, newest first, paged', querystring: GetOtcOrdersQuery, response: { 200: Envelope(OtcOrderPage) } },
      },
      async (req) => ok(await otc.orders(req.userId, req.query.tab, req.query.page ?? 1, req.query.pageSize ?? 20)),
    );

    app.get(
      `/api/${OTC_PATHS.getOrderDetail}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'One of your orders: both names, the payment details, the appeal',
          querystring: OrderIdQuery,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.orderDetail(req.userId, req.query.orderId)),
    );

    app.post(
      `/api/${OTC_PATHS.markPaid}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'The buyer: "I have paid" (the method used, an optional proof image)',
          body: MarkPaidBody,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.markPaid(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.release}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'The seller: payment received, release the escrow to the buyer (transaction password, Google code when bound)',
          body: ReleaseBody,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.release(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.cancelOrder}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'The buyer cancels the order (3 a day bar taking orders until the next day)',
          body: CancelOtcOrderBody,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.cancelOrder(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.appeal}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'Either side appeals a paid order (after the wait): reason, description, evidence images',
          body: AppealBody,
          response: { 200: Envelope(OtcOrderDetail) },
        },
      },
      async (req) => ok(await otc.appeal(req.userId, req.body)),
    );

    app.post(
      `/api/${OTC_PATHS.cancelAppeal}`,
      { ...auth, schema: { tags: TAGS, summary: 'The appellant withdraws the appeal', body: CancelAppealBody, response: { 200: Envelope(OtcOrderDetail) } } },
      async (req) => ok(await otc.cancelAppeal(req.userId, req.body.orderId)),
    );

    app.get(
      `/api/${OTC_PATHS.getMessages}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: "An order's chat after a message id, oldest first (marks them read)",
          querystring: GetOtcMessagesQuery,
          response: { 200: Envelope(Type.Array(OtcChatMessage)) },
        },
      },
      async (req) => ok(await otc.messages(req.userId, req.query.orderId, req.query.afterId)),
    );

    app.post(
      `/api/${OTC_PATHS.sendMessage}`,
      {
        ...auth,
        schema: {
          tags: TAGS,
          summary: 'A chat message in one of your orders: text or an uploaded image (purpose OTC)',
          body: SendOtcMessageBody,
          response: { 200: Envelope(OtcChatMessage) },
        },
      },
      async (req) => ok(await otc.sendMessage(req.userId, req.body)),
    );

    app.get(
      `/api/${OTC_IMAGE_PATH}`,
      { ...auth, schema: { tags: TAGS, summary: 'An image of one of your orders (payment QR code, proof, evidence, chat)', querystring: OtcImageQuery } },
      async (req, reply) => {
        const img = await otc.image({ userId: req.userId }, req.query.orderId, req.query.imageId);
        return reply.type(img.mime).header('cache-control', 'private, no-store').header('content-disposition', 'inline').send(img.bytes);
      },
    );
  };
}
