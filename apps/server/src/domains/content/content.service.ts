/**
 * Content edited in the console: banners, notices, help centre categories and articles, and the fixed
 * text pages, in zh and en, each with a draft and a published copy (packages/api content.ts).
 *
 * Operators create and edit drafts (`content_edit`), preview them in the console, and publish, unpublish or delete
 * (`content_publish`); every change writes its audit row (content_create, content_update, content_publish,
 * content_unpublish, content_delete, content_image_upload) in the transaction of the change, with the item before
 * and after. The app's reads (`banners`, `notices`, `helpCategories`, ...) see published copies only.
 *
 * Concurrent edits: each change is applied at the revision it read; when another change got there first the
 * operation is retried once on the fresh row and otherwise answers content_not_found (the item was deleted).
 * Content moves no money and has no engine command: the database is its only copy (docs/content.md).
 */
import crypto from 'node:crypto';
import type {
  AdminContentCreateBody,
  AdminContentItem,
  AdminContentPage,
  AdminContentUpdateBody,
  Banner,
  ContentFields,
  ContentImageUploaded,
  ContentKind,
  ContentPage,
  ContentStatus,
  HelpArticle,
  HelpArticles,
  HelpCategory,
  HelpSearchHit,
  Lang,
  Notice,
  NoticeDetail,
  PageSlug,
} from '@exchange/api';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/shared/errors';
import type { AuditInsert } from '../admin/admin.repository';
import type { Actor } from '../../platform/shared/operator';
import type { UploadsService } from '../uploads/uploads.service';
import { createContentRepository, type ItemInsert, type ItemRow } from './content.repository';
import { seedRows } from './content.seed';

/** URL prefix of uploaded content images (public route: published banners' images only). */
export const CONTENT_IMAGE_PREFIX = '/api/static/content/';
/** URL prefix of the seeded banner images (drawn at seed time, market-data routes). */
const SEEDED_BANNER_PREFIX = '/api/static/banners/';
/** The name of an uploaded image file. */
export const CONTENT_IMAGE_FILE = /^[0-9a-f]{32}\.(png|jpg|webp)$/;
/** The name of a seeded banner image file. */
const SEEDED_BANNER_FILE = /^[a-z0-9-]{1,60}\.svg$/;
/** At most this many search hits. */
const SEARCH_LIMIT = 50;

/** The content service. */
export interface ContentService {
  // ---------------------------------------------------------------- the app (published only)
  /** Published banners in display order, title and image in `lang` (spec getBanners). */
  banners(lang: Lang): Promise<Banner[]>;
  /** The latest 100 published notices, newest first publication first (spec getNotices). */
  notices(lang: Lang): Promise<Notice[]>;
  /** A published notice, or undefined. */
  notice(id: number, lang: Lang): Promise<NoticeDetail | undefined>;
  /** Published help categories with their number of visible articles (articles of unpublished categories are hidden). */
  helpCategories(lang: Lang): Promise<HelpCategory[]>;
  /** A published category and its published articles; content_not_found. */
  helpArticles(categoryId: number, lang: Lang): Promise<HelpArticles>;
  /** A published article of a published category; content_not_found. */
  helpArticle(id: number, lang: Lang): Promise<HelpArticle>;
  /** Published articles (of published categories) whose title or text in `lang` contains `q`, at most 50. */
  helpSearch(q: string, lang: Lang): Promise<HelpSearchHit[]>;
  /** A published fixed page; content_not_found. */
  page(slug: PageSlug, lang: Lang): Promise<ContentPage>;
  /** An uploaded image that a published banner shows; not_found otherwise. */
  publicImage(file: string): Promise<{ mime: string; bytes: Buffer }>;

  // ---------------------------------------------------------------- the console
  /** One page of items of a kind, drafts included. */
  list(kind: ContentKind, parentId: string | undefined, page: number, pageSize: number): Promise<AdminContentPage>;
  /** One item; content_not_found. */
  detail(id: string): Promise<AdminContentItem>;
  /** Creates a draft (audit content_create). */
  create(actor: Actor, input: AdminContentCreateBody): Promise<AdminContentItem>;
  /** Replaces an item's draft (audit content_update). */
  update(actor: Actor, input: AdminContentUpdateBody): Promise<AdminContentItem>;
  /** Publishes the draft (audit content_publish); a no-op without a row when the draft is published already. */
  publish(actor: Actor, id: string): Promise<AdminContentItem>;
  /** Takes the published copy down (audit content_unpublish); content_not_published, content_page_fixed. */
  unpublish(actor: Actor, id: string): Promise<AdminContentItem>;
  /** Deletes an item (audit content_delete); content_page_fixed, content_category_not_empty. */
  remove(actor: Actor, id: string): Promise<void>;
  /** Cleans and stores an uploaded image (audit content_image_upload); its URL. Upload errors as domains/uploads. */
  uploadImage(actor: Actor, bytes: Buffer): Promise<ContentImageUploaded>;
  /** Any uploaded image (the console's preview); not_found. */
  image(file: string): Promise<{ mime: string; bytes: Buffer }>;

  /** Writes the demo's initial content (published) for the slugs that are not there yet; idempotent. */
  seed(bannerDir: string, t0: number): Promise<void>;
}

/** Empty fields. */
export const EMPTY_FIELDS: ContentFields = {
  titleZh: '',
  titleEn: '',
  bodyZh: '',
  bodyEn: '',
  imageZh: '',
  imageEn: '',
  link: '',
  androidUrl: '',
  iosUrl: '',
  version: '',
  sort: 0,
  parentId: '',
};

/** The status of a row. */
function statusOf(r: ItemRow): ContentStatus {
  if (r.published === null) return r.publishedRevision === 0 ? 'DRAFT' : 'UNPUBLISHED';
  return r.publishedRevision === r.revision ? 'PUBLISHED' : 'CHANGED';
}

/** The console's view of a row. */
function toAdmin(r: ItemRow): AdminContentItem {
  return {
    id: String(r.id),
    kind: r.kind,
    slug: r.slug ?? '',
    status: statusOf(r),
    draft: { ...EMPTY_FIELDS, ...r.draft },
    published: r.published === null ? null : { ...EMPTY_FIELDS, ...r.published },
    createdAt: r.createdAt.getTime(),
    updatedAt: r.updatedAt.getTime(),
    publishedAt: r.publishedAt?.getTime() ?? 0,
    firstPublishedAt: r.firstPublishedAt?.getTime() ?? 0,
    updatedBy: r.updatedBy,
  };
}

/** What an audit row keeps of an item: its id, kind, slug, status and both copies. */
function auditView(r: ItemRow | null): unknown {
  return r === null ? null : { id: r.id, kind: r.kind, slug: r.slug, status: statusOf(r), revision: r.revision, draft: r.draft, published: r.published };
}

/** A text in `lang`. */
const pick = (f: ContentFields, what: 'title' | 'body', lang: Lang): string =>
  what === 'title' ? (lang === 'zh' ? f.titleZh : f.titleEn) : lang === 'zh' ? f.bodyZh : f.bodyEn;

/** An app id of a wire id (the app's ids are integers; larger ones do not exist). */
function parseId(s: string): number {
  if (!/^[1-9][0-9]{0,17}$/.test(s)) throw new AppError('content_not_found', 404, 'id');
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n > 2_147_483_647) throw new AppError('content_not_found', 404, 'id');
  return n;
}

/** True for '' (none), a path of this site ("/x", not "//x") or an https URL without spaces or quotes. */
export function isLink(s: string): boolean {
  if (s === '') return true;
  if (/[\s"'<>\\]/.test(s)) return false;
  if (/^\/(?!\/)/.test(s)) return true;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' && u.hostname !== '' && s.startsWith('https://');
  } catch {
    return false;
  }
}

/**
 * A snippet of `text` around the first match of `q` (case-insensitive): about `width` characters, with an ellipsis
 * where cut; '' when `q` does not occur.
 */
export function snippetOf(text: string, q: string, width = 120): string {
  const flat = text.replace(/^## /gm, '').replace(/\s+/g, ' ').trim();
  const at = flat.toLowerCase().indexOf(q.toLowerCase());
  if (at < 0) return '';
  const start = Math.max(0, at - Math.floor((width - q.length) / 2));
  const end = Math.min(flat.length, start + width);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/** Builds the service over `db`; `now` is the clock (Unix ms). */
export function createContentService(deps: {
  db: Db;
  /** checks and re-encodes an operator's image as a user's upload is (domains/uploads) */
  images: Pick<UploadsService, 'clean'>;
  now?: () => number;
}): ContentService {
  const repo = createContentRepository(deps.db);
  const now = deps.now ?? (() => Date.now());

  function audit(actor: Actor, action: string, before: ItemRow | null, after: ItemRow | null, extra: unknown = undefined): AuditInsert {
    return {
      operatorId: actor.id,
      operatorEmail: actor.email,
      action,
      before: auditView(before),
      after: extra === undefined ? auditView(after) : extra,
      at: new Date(now()),
      ip: actor.ip.slice(0, 64),
      userAgent: actor.userAgent.slice(0, 256),
    };
  }

  async function row(id: string): Promise<ItemRow> {
    const r = await repo.byId(parseId(id));
    if (!r) throw new AppError('content_not_found', 404, 'id');
    return r;
  }

  /** Checks an image field: '' or the URL of a seeded banner image or of an uploaded one. */
  async function checkImage(url: string, field: string): Promise<void> {
    if (url === '') return;
    if (url.startsWith(SEEDED_BANNER_PREFIX) && SEEDED_BANNER_FILE.test(url.slice(SEEDED_BANNER_PREFIX.length))) return;
    const file = url.startsWith(CONTENT_IMAGE_PREFIX) ? url.slice(CONTENT_IMAGE_PREFIX.length) : '';
    if (!CONTENT_IMAGE_FILE.test(file) || !(await repo.imageExists(file))) throw new AppError('content_image_invalid', 400, field);
  }

  /** The draft of a form for `kind`, checked by the kind's rules (see ContentFields). */
  async function fieldsOf(kind: ContentKind, input: Omit<AdminContentUpdateBody, 'id'>): Promise<ContentFields> {
    const f: ContentFields = {
      titleZh: input.titleZh.trim(),
      titleEn: input.titleEn.trim(),
      bodyZh: (input.bodyZh ?? '').replace(/\r\n?/g, '\n').trim(),
      bodyEn: (input.bodyEn ?? '').replace(/\r\n?/g, '\n').trim(),
      imageZh: (input.imageZh ?? '').trim(),
      imageEn: (input.imageEn ?? '').trim(),
      link: (input.link ?? '').trim(),
      androidUrl: (input.androidUrl ?? '').trim(),
      iosUrl: (input.iosUrl ?? '').trim(),
      version: (input.version ?? '').trim(),
      sort: input.sort ?? 0,
      parentId: input.parentId ?? '',
    };
    if (f.titleZh === '' || f.titleEn === '') throw new AppError('content_title_required', 400, f.titleZh === '' ? 'titleZh' : 'titleEn');
    for (const k of ['link', 'androidUrl', 'iosUrl'] as const) if (!isLink(f[k])) throw new AppError('content_link_invalid', 400, k);
    if ((kind === 'notice' || kind === 'help_article' || kind === 'page') && (f.bodyZh === '' || f.bodyEn === '')) {
      throw new AppError('content_body_required', 400, f.bodyZh === '' ? 'bodyZh' : 'bodyEn');
    }
    if (kind === 'banner') {
      if (f.imageZh === '' || f.imageEn === '') throw new AppError('content_image_required', 400, f.imageZh === '' ? 'imageZh' : 'imageEn');
      await checkImage(f.imageZh, 'imageZh');
      await checkImage(f.imageEn, 'imageEn');
    } else {
      // Only banners show images: a stray value would never be seen, so it is not kept.
      f.imageZh = '';
      f.imageEn = '';
    }
    if (kind === 'help_article') {
      const n = Number(f.parentId);
      const cat = f.parentId !== '' && Number.isSafeInteger(n) && n <= 2_147_483_647 ? await repo.byId(n) : null;
      if (!cat || cat.kind !== 'help_category') throw new AppError('content_category_not_found', 400, 'parentId');
    } else {
      f.parentId = '';
    }
    if (kind !== 'page') {
      f.version = '';
      f.androidUrl = '';
      f.iosUrl = '';
    }
    return f;
  }

  /**
   * Applies `change` to the fresh row of `id` at its revision; when another change came first, once more on the
   * newer row. `change` answers the columns to set and the audit action, or null for "nothing to do".
   */
  async function mutate(
    actor: Actor,
    id: string,
    change: (r: ItemRow) => Promise<{ set: Partial<ItemInsert>; action: string } | null>,
  ): Promise<AdminContentItem> {
    for (let attempt = 0; ; attempt++) {
      const before = await row(id);
      const c = await change(before);
      if (c === null) return toAdmin(before);
      const after = await repo.update(before.id, before.revision, { ...c.set, updatedBy: actor.email }, (item) => audit(actor, c.action, before, item));
      if (after) return toAdmin(after);
      if (attempt >= 1) throw new AppError('content_not_found', 404, 'id');
    }
  }

  /** Published categories by id. */
  async function categories(): Promise<Map<string, ItemRow>> {
    return new Map((await repo.published('help_category', 1000)).map((c) => [String(c.id), c]));
  }

  const service: ContentService = {
    async banners(lang) {
      return (await repo.published('banner', 100)).map((b) => {
        const p = b.published!;
        return { id: b.id, bannerUrl: lang === 'zh' ? p.imageZh : p.imageEn, title: pick(p, 'title', lang), link: p.link };
      });
    },
    async notices(lang) {
      return (await repo.published('notice', 100)).map((n) => ({
        id: n.id,
        title: pick(n.published!, 'title', lang),
        createTime: n.firstPublishedAt?.getTime() ?? 0,
      }));
    },
    async notice(id, lang) {
      const n = await repo.publishedItem('notice', id);
      if (!n) return undefined;
      return { id: n.id, title: pick(n.published!, 'title', lang), content: pick(n.published!, 'body', lang), createTime: n.firstPublishedAt?.getTime() ?? 0 };
    },
    async helpCategories(lang) {
      const cats = await categories();
      const counts = new Map<string, number>();
      for (const a of await repo.publishedArticles()) counts.set(a.published!.parentId, (counts.get(a.published!.parentId) ?? 0) + 1);
      return [...cats.values()].map((c) => ({
        id: c.id,
        title: pick(c.published!, 'title', lang),
        description: pick(c.published!, 'body', lang),
        articleCount: counts.get(String(c.id)) ?? 0,
      }));
    },
    async helpArticles(categoryId, lang) {
      const c = await repo.publishedItem('help_category', categoryId);
      if (!c) throw new AppError('content_not_found', 404, 'categoryId');
      const articles = await repo.publishedArticles(categoryId);
      return {
        category: { id: c.id, title: pick(c.published!, 'title', lang), description: pick(c.published!, 'body', lang), articleCount: articles.length },
        articles: articles.map((a) => ({ id: a.id, title: pick(a.published!, 'title', lang), categoryId, updateTime: a.publishedAt?.getTime() ?? 0 })),
      };
    },
    async helpArticle(id, lang) {
      const a = await repo.publishedItem('help_article', id);
      const c = a ? await repo.publishedItem('help_category', Number(a.published!.parentId)) : null;
      if (!a || !c) throw new AppError('content_not_found', 404, 'id');
      return {
        id: a.id,
        title: pick(a.published!, 'title', lang),
        content: pick(a.published!, 'body', lang),
        categoryId: c.id,
        categoryTitle: pick(c.published!, 'title', lang),
        updateTime: a.publishedAt?.getTime() ?? 0,
      };
    },
    async helpSearch(q, lang) {
      const words = q.trim();
      if (words === '') return [];
      const cats = await categories();
      const hits: HelpSearchHit[] = [];
      for (const a of await repo.searchArticles(lang, words, SEARCH_LIMIT * 2)) {
        const c = cats.get(a.published!.parentId);
        if (!c) continue;
        hits.push({
          id: a.id,
          title: pick(a.published!, 'title', lang),
          categoryTitle: pick(c.published!, 'title', lang),
          snippet: snippetOf(pick(a.published!, 'body', lang), words),
        });
        if (hits.length >= SEARCH_LIMIT) break;
      }
      return hits;
    },
    async page(slug, lang) {
      const p = await repo.publishedPage(slug);
      if (!p) throw new AppError('content_not_found', 404, 'slug');
      const f = { ...EMPTY_FIELDS, ...p.published! };
      return {
        slug,
        title: pick(f, 'title', lang),
        content: pick(f, 'body', lang),
        updateTime: p.publishedAt?.getTime() ?? 0,
        version: f.version,
        androidUrl: f.androidUrl,
        iosUrl: f.iosUrl,
      };
    },
    async publicImage(file) {
      if (!CONTENT_IMAGE_FILE.test(file) || !(await repo.imagePublished(CONTENT_IMAGE_PREFIX + file))) throw new AppError('not_found', 404);
      const img = await repo.image(file);
      if (!img) throw new AppError('not_found', 404);
      return img;
    },

    async list(kind, parentId, page, pageSize) {
      const { total, rows } = await repo.list(kind, parentId, (page - 1) * pageSize, pageSize);
      return { total, page, pageSize, records: rows.map(toAdmin) };
    },
    async detail(id) {
      return toAdmin(await row(id));
    },
    async create(actor, input) {
      const draft = await fieldsOf(input.kind, input);
      const at = new Date(now());
      const item = await repo.insert(
        {
          kind: input.kind,
          slug: null,
          draft,
          published: null,
          revision: 1,
          publishedRevision: 0,
          createdAt: at,
          updatedAt: at,
          publishedAt: null,
          firstPublishedAt: null,
          updatedBy: actor.email,
        },
        (r) => audit(actor, 'content_create', null, r),
      );
      return toAdmin(item);
    },
    async update(actor, input) {
      return mutate(actor, input.id, async (r) => {
        const draft = await fieldsOf(r.kind, input);
        if (r.kind === 'help_article' && draft.parentId === String(r.id)) throw new AppError('content_category_not_found', 400, 'parentId');
        return { set: { draft, revision: r.revision + 1, updatedAt: new Date(now()) }, action: 'content_update' };
      });
    },
    async publish(actor, id) {
      return mutate(actor, id, async (r) => {
        if (r.published !== null && r.publishedRevision === r.revision) return null;
        const at = new Date(now());
        return {
          set: { published: r.draft, publishedRevision: r.revision, publishedAt: at, firstPublishedAt: r.firstPublishedAt ?? at },
          action: 'content_publish',
        };
      });
    },
    async unpublish(actor, id) {
      return mutate(actor, id, async (r) => {
        if (r.kind === 'page') throw new AppError('content_page_fixed', 400, 'id');
        if (r.published === null) throw new AppError('content_not_published', 400, 'id');
        return { set: { published: null }, action: 'content_unpublish' };
      });
    },
    async remove(actor, id) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const r = await row(id);
        if (r.kind === 'page') throw new AppError('content_page_fixed', 400, 'id');
        if (r.kind === 'help_category' && (await repo.childCount(r.id)) > 0) throw new AppError('content_category_not_empty', 400, 'id');
        if (await repo.remove(r.id, r.revision, audit(actor, 'content_delete', r, null))) return;
      }
      throw new AppError('content_not_found', 404, 'id');
    },
    async uploadImage(actor, bytes) {
      const img = await deps.images.clean(bytes);
      const file = `${crypto.createHash('sha256').update(img.bytes).digest('hex').slice(0, 32)}.${img.ext}`;
      const url = CONTENT_IMAGE_PREFIX + file;
      await repo.insertImage(
        { file, mime: img.mime, bytes: img.bytes, width: img.width, height: img.height, createdAt: new Date(now()), operatorId: actor.id },
        audit(actor, 'content_image_upload', null, null, { url, width: img.width, height: img.height, bytes: img.bytes.length }),
      );
      return { url, width: img.width, height: img.height };
    },
    async image(file) {
      const img = CONTENT_IMAGE_FILE.test(file) ? await repo.image(file) : null;
      if (!img) throw new AppError('not_found', 404);
      return img;
    },

    async seed(bannerDir, t0) {
      await seedRows(repo, bannerDir, t0);
    },
  };
  return service;
}
