/**
 * Routes of data/data (spec section 7 call table): main currencies, pairs, banners,
 * notices, rankings, coin info, k-lines, depth, trades; and the banner images under /api/static/banners/.
 * Thin: validation by the schemas of packages/api, answers from the market-data service in the envelope.
 */
import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import {
  API_PATHS,
  Banner,
  CoinInfo,
  Depth,
  Envelope,
  GetBannersQuery,
  GetCoinInfoQuery,
  GetDepthQuery,
  GetIndexCoinQuery,
  GetKlineQuery,
  GetNoticeDetailQuery,
  GetNoticesQuery,
  GetPairsByMainCurQuery,
  GetTradesQuery,
  GlobalLang,
  Kline,
  Notice,
  NoticeDetail,
  Pair,
  PublicTrade,
  type Lang,
  type MarketType,
} from '@exchange/api';
import type { FastifyRequest } from 'fastify';
import { ok } from '../../platform/shared/envelope';
import { AppError } from '../../platform/shared/errors';
import { requestLang } from '../../platform/shared/lang';
import type { MarketDataService } from './market-data.service';

/** Default number of k-line bars (spec: limit default 300, max 1500). */
export const KLINE_DEFAULT_LIMIT = 300;
/** Default depth levels and trades. */
export const DEPTH_DEFAULT_LIMIT = 20;
/** Default number of latest trades. */
export const TRADES_DEFAULT_LIMIT = 50;

/** Content language: the spec's `global` parameter when given (CHINESE_SIM | ENGLISH), else the request's. */
function contentLang(req: FastifyRequest, global: Static<typeof GlobalLang> | undefined): Lang {
  if (global === 'CHINESE_SIM') return 'zh';
  if (global === 'ENGLISH') return 'en';
  return requestLang(req);
}

const tags = ['data'];

/**
 * Integer query values that the schema's type check lets through (AJV accepts 1e308 and coerces "Infinity") are
 * refused here: undefined stays undefined, anything outside [min, max] or not a safe integer is a 400.
 */
function intIn(v: number | undefined, field: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < min || v > max) throw new AppError('validation_failed', 400, field);
  return v;
}

/** What the market data routes read of the content service (domains/content): the published banners and notices. */
export interface MarketContent {
  banners(lang: Lang): Promise<Banner[]>;
  notices(lang: Lang): Promise<Notice[]>;
  notice(id: number, lang: Lang): Promise<NoticeDetail | undefined>;
}

/** The market data routes over the market data service and the banners and notices of the content service (`content`). */
export default function marketData({ marketData: md, content }: { marketData: MarketDataService; content: MarketContent }): FastifyPluginAsync {
  return async function marketData(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const listingOr404 = (pairsName: string, type: MarketType) => {
      const l = md.listing(pairsName, type);
      if (!l) throw new AppError('market_not_found', 400, 'pairsName');
      return l;
    };

    app.get(`/api/${API_PATHS.getMainCurs}`, { schema: { tags, response: { 200: Envelope(Type.Array(Type.String())) } } }, async () => ok(md.mainCurs()));

    app.get(
      `/api/${API_PATHS.getPairsByMainCur}`,
      { schema: { tags, querystring: GetPairsByMainCurQuery, response: { 200: Envelope(Type.Array(Pair)) } } },
      async (req) => {
        const pairs = md.pairs(req.query.mainCur, req.query.type);
        // An unknown main currency is a bad input (like an unknown enum value), not an empty market.
        if (pairs.length === 0 && !md.mainCurs().includes(req.query.mainCur)) throw new AppError('asset_not_found', 400, 'mainCur');
        return ok(pairs);
      },
    );

    app.get(`/api/${API_PATHS.getBanners}`, { schema: { tags, querystring: GetBannersQuery, response: { 200: Envelope(Type.Array(Banner)) } } }, async (req) =>
      ok(await content.banners(contentLang(req, req.query.global))),
    );

    app.get(`/api/${API_PATHS.getNotices}`, { schema: { tags, querystring: GetNoticesQuery, response: { 200: Envelope(Type.Array(Notice)) } } }, async (req) =>
      ok(await content.notices(contentLang(req, req.query.global))),
    );

    app.get(
      `/api/${API_PATHS.getNoticeDetail}`,
      { schema: { tags, querystring: GetNoticeDetailQuery, response: { 200: Envelope(NoticeDetail) } } },
      async (req) => {
        const id = intIn(req.query.id, 'id', 1, 2_147_483_647) as number;
        const n = await content.notice(id, contentLang(req, req.query.global));
        if (!n) throw new AppError('not_found', 404, 'id');
        return ok(n);
      },
    );

    app.get(
      `/api/${API_PATHS.getIndexCoin}`,
      { schema: { tags, querystring: GetIndexCoinQuery, response: { 200: Envelope(Type.Array(Pair)) } } },
      async (req) => ok(md.indexCoin(req.query.getCoinType)),
    );

    app.get(`/api/${API_PATHS.getCoinInfo}`, { schema: { tags, querystring: GetCoinInfoQuery, response: { 200: Envelope(CoinInfo) } } }, async (req) => {
      const type = req.query.type ?? 'SPOT';
      const l = listingOr404(req.query.pairsName, type);
      const pair = md.pair(l.symbol, type);
      const coin = md.coinIntro(l.base, requestLang(req));
      if (!pair || !coin) throw new AppError('not_found', 404, 'pairsName');
      return ok({ pair, coin });
    });

    app.get(`/api/${API_PATHS.getKline}`, { schema: { tags, querystring: GetKlineQuery, response: { 200: Envelope(Type.Array(Kline)) } } }, async (req) => {
      const q = req.query;
      const limit = intIn(q.limit, 'limit', 1, 1500) ?? KLINE_DEFAULT_LIMIT;
      const endTime = intIn(q.endTime, 'endTime', 0, Number.MAX_SAFE_INTEGER);
      listingOr404(q.pairsName, q.type);
      return ok(await md.klines(q.pairsName, q.type, q.period, limit, endTime));
    });

    app.get(`/api/${API_PATHS.getDepth}`, { schema: { tags, querystring: GetDepthQuery, response: { 200: Envelope(Depth) } } }, async (req) => {
      const type = req.query.type ?? 'SPOT';
      const limit = intIn(req.query.limit, 'limit', 1, 200) ?? DEPTH_DEFAULT_LIMIT;
      listingOr404(req.query.pairsName, type);
      const d = md.depth(req.query.pairsName, type, limit);
      return ok({ pairsName: req.query.pairsName, seq: d.seq, bids: d.bids, asks: d.asks });
    });

    app.get(
      `/api/${API_PATHS.getTrades}`,
      { schema: { tags, querystring: GetTradesQuery, response: { 200: Envelope(Type.Array(PublicTrade)) } } },
      async (req) => {
        const type = req.query.type ?? 'SPOT';
        const limit = intIn(req.query.limit, 'limit', 1, 200) ?? TRADES_DEFAULT_LIMIT;
        listingOr404(req.query.pairsName, type);
        return ok(md.trades(req.query.pairsName, type, limit));
      },
    );

    // Banner images (drawn at seed time into <dataDir>/static/banners), outside the web app's paths.
    app.get('/api/static/banners/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 80 }) }) } }, async (req, reply) => {
      const file = md.bannerFile(req.params.file);
      if (!file) throw new AppError('not_found', 404);
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(fs.createReadStream(file));
    });
  };
}
