/**
 * Wire schemas of the content edited in the console: home banners, official notices, help centre
 * categories and articles, and the fixed text pages (agreements, privacy policy, download page), each in zh and en.
 *
 * Every item has a draft (what operators edit and preview) and a published copy (what the app sees). Creating or
 * editing changes only the draft; publishing copies the draft to the published copy; unpublishing removes the
 * published copy. The app's routes (CONTENT_PATHS, and getBanners / getNotices / getNoticeDetail of paths.ts) read
 * published copies only. The console's routes (CONTENT_ADMIN_PATHS, header x-admin-token) read and write both.
 *
 * Body text format (bodyZh, bodyEn): plain text, never HTML. Paragraphs are separated by a blank line; a line that
 * starts with "## " is a heading. Times are Unix ms numbers; ids decimal strings in the console, integers in the app
 * (as the spec's notice ids).
 */
import { Type, type Static } from '@sinclair/typebox';
import { GlobalLang, Paged } from './schemas';

export { CONTENT_PATHS, CONTENT_ADMIN_PATHS } from './content-paths';

/** What an item is. `page` items are the fixed text pages (PAGE_SLUGS): edited and published, never created or deleted. */
export const ContentKind = Type.Union([
  Type.Literal('banner'),
  Type.Literal('notice'),
  Type.Literal('help_category'),
  Type.Literal('help_article'),
  Type.Literal('page'),
]);
export type ContentKind = Static<typeof ContentKind>;
/** The kinds operators create (and delete). */
export const CreatableKind = Type.Union([Type.Literal('banner'), Type.Literal('notice'), Type.Literal('help_category'), Type.Literal('help_article')]);
export type CreatableKind = Static<typeof CreatableKind>;

/**
 * The fixed text pages and the app route of each: agreement = the user registration agreement (/agreement),
 * privacy = the privacy policy (/aboutAgreement), otc = the P2P trading terms (/otc365agreement), merchant = the
 * merchant agreement (/merchantAgreement), download = the download page's text, version and links (/downloadApp).
 */
export const PAGE_SLUGS = ['agreement', 'privacy', 'otc', 'merchant', 'download'] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];
export const PageSlug = Type.Union([
  Type.Literal('agreement'),
  Type.Literal('privacy'),
  Type.Literal('otc'),
  Type.Literal('merchant'),
  Type.Literal('download'),
]);

/** Where an item stands: never published; published and unchanged since; published with a newer draft; taken down. */
export const ContentStatus = Type.Union([Type.Literal('DRAFT'), Type.Literal('PUBLISHED'), Type.Literal('CHANGED'), Type.Literal('UNPUBLISHED')]);
export type ContentStatus = Static<typeof ContentStatus>;

/** Longest title, and longest body text per language. */
export const CONTENT_TITLE_MAX = 200;
export const CONTENT_BODY_MAX = 30_000;

/** A link or URL field: '' (none), a path of this site ("/quotes") or an https URL. Checked by the server. */
const Url = Type.String({ maxLength: 500 });

/**
 * The editable fields of an item (draft and published copy alike). Which ones a kind uses:
 * banner: titles (alt text), imageZh/imageEn (required), link, sort. notice: titles, bodies (required).
 * help_category: titles (the name), bodies (a one-line description, optional), sort. help_article: titles, bodies
 * (required), parentId (its category), sort. page: titles, bodies; the download page also version, androidUrl, iosUrl.
 */
export const ContentFields = Type.Object({
  titleZh: Type.String(),
  titleEn: Type.String(),
  bodyZh: Type.String(),
  bodyEn: Type.String(),
  imageZh: Type.String(),
  imageEn: Type.String(),
  link: Type.String(),
  androidUrl: Type.String(),
  iosUrl: Type.String(),
  version: Type.String(),
  /** Display order, ascending (ties: oldest first). */
  sort: Type.Integer(),
  /** help_article: the category's id; '' otherwise. */
  parentId: Type.String(),
});
export type ContentFields = Static<typeof ContentFields>;

/** An item as the console shows it. */
export const AdminContentItem = Type.Object({
  id: Type.String(),
  kind: ContentKind,
  /** Stable key of a seeded item or a page ('' for items created in the console). */
  slug: Type.String(),
  status: ContentStatus,
  draft: ContentFields,
  /** What the app shows now; null when not published. */
  published: Type.Union([ContentFields, Type.Null()]),
  createdAt: Type.Number(),
  /** When the draft last changed. */
  updatedAt: Type.Number(),
  /** When it was last published (0 = never). For notices the app shows `firstPublishedAt`. */
  publishedAt: Type.Number(),
  firstPublishedAt: Type.Number(),
  /** E-mail of the operator who changed it last ('seed' for the seeded content). */
  updatedBy: Type.String(),
});
export type AdminContentItem = Static<typeof AdminContentItem>;
export const AdminContentPage = Paged(AdminContentItem);
export type AdminContentPage = Static<typeof AdminContentPage>;

const Id = Type.String({ pattern: '^[1-9][0-9]{0,17}$' });
/** An optional id field of a form: '' or absent = none. */
const OptionalId = Type.Optional(Type.String({ pattern: '^([1-9][0-9]{0,17})?$' }));

export const AdminContentListQuery = Type.Object({
  kind: ContentKind,
  /** help_article: only the articles of this category. */
  parentId: Type.Optional(Id),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export const AdminContentIdQuery = Type.Object({ id: Id });
export const AdminContentIdBody = Type.Object({ id: Id });

/** The fields of a create or update form (an update replaces the whole draft); absent optional fields are '' (sort 0). */
const FieldInputs = {
  titleZh: Type.String({ minLength: 1, maxLength: CONTENT_TITLE_MAX }),
  titleEn: Type.String({ minLength: 1, maxLength: CONTENT_TITLE_MAX }),
  bodyZh: Type.Optional(Type.String({ maxLength: CONTENT_BODY_MAX })),
  bodyEn: Type.Optional(Type.String({ maxLength: CONTENT_BODY_MAX })),
  imageZh: Type.Optional(Url),
  imageEn: Type.Optional(Url),
  link: Type.Optional(Url),
  androidUrl: Type.Optional(Url),
  iosUrl: Type.Optional(Url),
  version: Type.Optional(Type.String({ maxLength: 40 })),
  sort: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  parentId: OptionalId,
};
export const AdminContentCreateBody = Type.Object({ kind: CreatableKind, ...FieldInputs });
export type AdminContentCreateBody = Static<typeof AdminContentCreateBody>;
export const AdminContentUpdateBody = Type.Object({ id: Id, ...FieldInputs });
export type AdminContentUpdateBody = Static<typeof AdminContentUpdateBody>;
export const AdminContentImageQuery = Type.Object({ file: Type.String({ maxLength: 80 }) });
export const ContentImageUploaded = Type.Object({ url: Type.String(), width: Type.Integer(), height: Type.Integer() });
export type ContentImageUploaded = Static<typeof ContentImageUploaded>;

// ---------------------------------------------------------------- the app's routes (published only)

export const HelpCategory = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  articleCount: Type.Integer(),
});
export type HelpCategory = Static<typeof HelpCategory>;
export const HelpArticleSummary = Type.Object({ id: Type.Integer(), title: Type.String(), categoryId: Type.Integer(), updateTime: Type.Number() });
export type HelpArticleSummary = Static<typeof HelpArticleSummary>;
export const HelpArticles = Type.Object({ category: HelpCategory, articles: Type.Array(HelpArticleSummary) });
export type HelpArticles = Static<typeof HelpArticles>;
export const HelpArticle = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  content: Type.String(),
  categoryId: Type.Integer(),
  categoryTitle: Type.String(),
  updateTime: Type.Number(),
});
export type HelpArticle = Static<typeof HelpArticle>;
export const HelpSearchHit = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  categoryTitle: Type.String(),
  /** Up to about 120 characters of the text around the first match ('' when only the title matched). */
  snippet: Type.String(),
});
export type HelpSearchHit = Static<typeof HelpSearchHit>;
export const ContentPage = Type.Object({
  slug: PageSlug,
  title: Type.String(),
  content: Type.String(),
  /** When it was last published. */
  updateTime: Type.Number(),
  /** download page: the version the links lead to, and the links ('' = none). */
  version: Type.String(),
  androidUrl: Type.String(),
  iosUrl: Type.String(),
});
export type ContentPage = Static<typeof ContentPage>;

const ItemId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
export const HelpCategoriesQuery = Type.Object({ global: Type.Optional(GlobalLang) });
export const HelpArticlesQuery = Type.Object({ categoryId: ItemId, global: Type.Optional(GlobalLang) });
export const HelpArticleQuery = Type.Object({ id: ItemId, global: Type.Optional(GlobalLang) });
export const HelpSearchQuery = Type.Object({ q: Type.String({ minLength: 1, maxLength: 50 }), global: Type.Optional(GlobalLang) });
export const ContentPageQuery = Type.Object({ slug: PageSlug, global: Type.Optional(GlobalLang) });
