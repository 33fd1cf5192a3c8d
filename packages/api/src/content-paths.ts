/**
 * Paths of the content routes (content.ts), in a module of their own with no schema in it: the web app's home screen
 * imports the notices' and pages' paths into its first load, which must not carry TypeBox (a module's top-level schema
 * calls are kept by the bundler even when unused).
 */

/** Paths of the app's content routes, relative to `/api/` (GET, public, published content only). */
export const CONTENT_PATHS = {
  /** help centre categories with their number of published articles */
  helpCategories: 'data/help/getCategories',
  /** one category and its published articles */
  helpArticles: 'data/help/getArticles',
  /** one published article */
  helpArticle: 'data/help/getArticle',
  /** published articles whose title or text contains the words, in the request's language */
  helpSearch: 'data/help/search',
  /** a fixed text page: agreement, privacy, otc, merchant, download */
  page: 'data/content/getPage',
} as const;

/** Paths of the console's content routes, relative to `/api/` (header x-admin-token). */
export const CONTENT_ADMIN_PATHS = {
  list: 'admin/content/list',
  detail: 'admin/content/detail',
  create: 'admin/content/create',
  update: 'admin/content/update',
  publish: 'admin/content/publish',
  unpublish: 'admin/content/unpublish',
  remove: 'admin/content/delete',
  /** POST multipart (field `file`): a JPEG, PNG or WebP banner image; answers its URL */
  uploadImage: 'admin/content/uploadImage',
  /** GET ?file=: an uploaded image, published or not (the console's preview) */
  image: 'admin/content/image',
} as const;
