/**
 * The app's content routes (CONTENT_PATHS of packages/api content.ts): the help centre (categories, a category's
 * articles, an article, search) and the fixed text pages, in the `global` language (CHINESE_SIM | ENGLISH) or the
 * request's; and the uploaded banner images under /api/static/content/ (only those a published banner shows).
 * Public and read-only: published copies only (drafts are the console's: content.admin.routes.ts). The spec's
 * getBanners, getNotices and getNoticeDetail stay in market-data.routes.ts and read the same published copies.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import {
  CONTENT_PATHS,
  ContentPage,
  ContentPageQuery,
  Envelope,
  GlobalLang,
  HelpArticle,
  HelpArticleQuery,
  HelpArticles,
  HelpArticlesQuery,
  HelpCategoriesQuery,
  HelpCategory,
  HelpSearchHit,
  HelpSearchQuery,
  type Lang,
} from '@exchange/api';
import { ok } from '../../platform/shared/envelope';
import { requestLang } from '../../platform/shared/lang';
import type { ContentService } from './content.service';

const TAGS = ['content'];

/** Content language: the spec's `global` parameter when given, else the request's. */
export function contentLang(req: FastifyRequest, global: Static<typeof GlobalLang> | undefined): Lang {
  if (global === 'CHINESE_SIM') return 'zh';
  if (global === 'ENGLISH') return 'en';
  return requestLang(req);
}

/** The app's content routes over the content service. */
export default function contentRoutes({ content }: { content: ContentService }): FastifyPluginAsync {
  return async function contentRoutes(root) {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      `/api/${CONTENT_PATHS.helpCategories}`,
      {
        schema: {
          tags: TAGS,
          summary: 'Help centre categories (published) with their number of articles',
          querystring: HelpCategoriesQuery,
          response: { 200: Envelope(Type.Array(HelpCategory)) },
        },
      },
      async (req) => ok(await content.helpCategories(contentLang(req, req.query.global))),
    );
    app.get(
      `/api/${CONTENT_PATHS.helpArticles}`,
      {
        schema: {
          tags: TAGS,
          summary: 'A help centre category and its published articles',
          querystring: HelpArticlesQuery,
          response: { 200: Envelope(HelpArticles) },
        },
      },
      async (req) => ok(await content.helpArticles(req.query.categoryId, contentLang(req, req.query.global))),
    );
    app.get(
      `/api/${CONTENT_PATHS.helpArticle}`,
      { schema: { tags: TAGS, summary: 'A published help centre article', querystring: HelpArticleQuery, response: { 200: Envelope(HelpArticle) } } },
      async (req) => ok(await content.helpArticle(req.query.id, contentLang(req, req.query.global))),
    );
    app.get(
      `/api/${CONTENT_PATHS.helpSearch}`,
      {
        schema: {
          tags: TAGS,
          summary: 'Published help articles whose title or text contains the words (at most 50)',
          querystring: HelpSearchQuery,
          response: { 200: Envelope(Type.Array(HelpSearchHit)) },
        },
      },
      async (req) => ok(await content.helpSearch(req.query.q, contentLang(req, req.query.global))),
    );
    app.get(
      `/api/${CONTENT_PATHS.page}`,
      {
        schema: {
          tags: TAGS,
          summary: 'A text page: agreement, privacy, otc, merchant or download (published copy)',
          querystring: ContentPageQuery,
          response: { 200: Envelope(ContentPage) },
        },
      },
      async (req) => ok(await content.page(req.query.slug, contentLang(req, req.query.global))),
    );

    // Uploaded banner images, by their content hash: only the ones a published banner shows (a draft's are the console's).
    app.get('/api/static/content/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 80 }) }) } }, async (req, reply) => {
      const img = await content.publicImage(req.params.file);
      return reply.type(img.mime).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(img.bytes);
    });
  };
}
