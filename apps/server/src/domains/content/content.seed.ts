/**
 * The demo's initial content, written published on the first start (and for any seeded slug missing later): the
 * three home banners (their SVG images drawn into the data directory) and the official notices that market data
 * seeded before content moved to the console (seed/banners.ts), the help centre (seed/help.ts) and the five text pages
 * (seed/pages.ts). Only while there is no content item at all (the first start, or the first start after the
 * upgrade that brought content items): later starts never write again, so an item an operator changed or deleted stays so.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ContentFields, ContentKind } from '@exchange/api';
import { BANNERS, BANNER_URL_PREFIX, NOTICES, bannerFile, bannerSvg } from './seed/banners';
import type { ContentRepository, ItemInsert } from './content.repository';
import { HELP } from './seed/help';
import { PAGES } from './seed/pages';

/** Who wrote the seeded items (their `updatedBy`). */
export const SEED_AUTHOR = 'seed';

/** A published item of the seed. */
function item(kind: ContentKind, slug: string, fields: Partial<ContentFields>, at: number): ItemInsert {
  const f: ContentFields = {
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
    ...fields,
  };
  const time = new Date(at);
  return {
    kind,
    slug,
    draft: f,
    published: f,
    revision: 1,
    publishedRevision: 1,
    createdAt: time,
    updatedAt: time,
    publishedAt: time,
    firstPublishedAt: time,
    updatedBy: SEED_AUTHOR,
  };
}

/** Writes the banner images into `bannerDir` (when missing) and, on the first start, the items; `t0` is now (ms). */
export async function seedRows(repo: ContentRepository, bannerDir: string, t0: number): Promise<void> {
  fs.mkdirSync(bannerDir, { recursive: true });
  for (const b of BANNERS) {
    for (const lang of ['zh', 'en'] as const) {
      const file = path.join(bannerDir, bannerFile(b.slug, lang));
      if (!fs.existsSync(file)) fs.writeFileSync(file, bannerSvg(b, lang));
    }
  }
  const rows: ItemInsert[] = [
    ...BANNERS.map((b, i) =>
      item(
        'banner',
        b.slug,
        {
          titleZh: b.titleZh,
          titleEn: b.titleEn,
          imageZh: BANNER_URL_PREFIX + bannerFile(b.slug, 'zh'),
          imageEn: BANNER_URL_PREFIX + bannerFile(b.slug, 'en'),
          link: b.link,
          sort: i,
        },
        t0,
      ),
    ),
    ...NOTICES.map((n) =>
      item('notice', n.slug, { titleZh: n.titleZh, titleEn: n.titleEn, bodyZh: n.contentZh, bodyEn: n.contentEn }, t0 - n.hoursAgo * 3_600_000),
    ),
    ...HELP.map((c, i) => item('help_category', c.slug, { titleZh: c.titleZh, titleEn: c.titleEn, bodyZh: c.bodyZh, bodyEn: c.bodyEn, sort: i }, t0)),
    ...PAGES.map((p) =>
      item(
        'page',
        p.slug,
        {
          titleZh: p.titleZh,
          titleEn: p.titleEn,
          bodyZh: p.bodyZh,
          bodyEn: p.bodyEn,
          version: p.version ?? '',
          androidUrl: p.androidUrl ?? '',
          iosUrl: p.iosUrl ?? '',
        },
        t0,
      ),
    ),
  ];
  // Articles name their category by id: the categories' ids are known once they are written.
  await repo.seedIfEmpty(rows, (ids) =>
    HELP.flatMap((c) => {
      const id = ids.get(c.slug);
      if (id === undefined) return [];
      return c.articles.map((a, i) =>
        item('help_article', a.slug, { titleZh: a.titleZh, titleEn: a.titleEn, bodyZh: a.bodyZh, bodyEn: a.bodyEn, parentId: String(id), sort: i }, t0),
      );
    }),
  );
}
