/**
 * Editorial content of market data: home banners (with their image files under the data dir) and notices, in
 * the request's language. The rows are written by the seed (seed/content.ts) and read from the database on each
 * call (they are few and rarely asked for).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Banner, Lang, Notice, NoticeDetail } from '@exchange/api';
import type { MarketDataRepository } from './market-data.repository';

/** Banners and notices. */
export interface Content {
  /** Banners of `bannerType` (default DATA_BANNER) with title and image in `lang`. */
  banners(lang: Lang, bannerType?: string): Promise<Banner[]>;
  /** The latest 100 notices of `noticeType` (default OFFICIAL), titles in `lang`. */
  notices(lang: Lang, noticeType?: string): Promise<Notice[]>;
  /** One notice in `lang`, or undefined for an unknown id. */
  notice(id: number, lang: Lang): Promise<NoticeDetail | undefined>;
  /** Absolute path of a banner image file, or undefined for an unknown name (or one that is not a plain .svg name). */
  bannerFile(file: string): string | undefined;
}

/** Content read through `repo`; banner images live in `bannerDir`. */
export function createContent(repo: MarketDataRepository, bannerDir: string): Content {
  return {
    async banners(lang, bannerType = 'DATA_BANNER') {
      return (await repo.banners(bannerType)).map((b) => ({
        id: b.id,
        bannerUrl: lang === 'zh' ? b.imageZh : b.imageEn,
        title: lang === 'zh' ? b.titleZh : b.titleEn,
        link: b.link,
      }));
    },
    async notices(lang, noticeType = 'OFFICIAL') {
      return (await repo.notices(noticeType, 100)).map((n) => ({ id: n.id, title: lang === 'zh' ? n.titleZh : n.titleEn, createTime: n.createTime }));
    },
    async notice(id, lang) {
      const n = await repo.notice(id);
      if (!n) return undefined;
      return { id: n.id, title: lang === 'zh' ? n.titleZh : n.titleEn, content: lang === 'zh' ? n.contentZh : n.contentEn, createTime: n.createTime };
    },
    bannerFile(file) {
      if (!/^[a-z0-9-]{1,60}\.svg$/.test(file)) return undefined;
      const full = path.join(bannerDir, file);
      return fs.existsSync(full) ? full : undefined;
    },
  };
}
