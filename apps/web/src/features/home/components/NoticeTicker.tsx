/**
 * Vertically rotating notice line (spec section 2); tapping opens /noticeList. Every 3 s the column
 * of titles moves up one line by a CSS transition; after the last title comes a copy of the first,
 * from which the column jumps back without animation, so the rotation always runs upwards. No antd
 * Swiper (react-spring + use-gesture in the first load).
 */
import { memo, useEffect, useState } from 'react';
import { RightOutline, SoundOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Notice } from '@exchange/api';
import { ListSkeleton } from '../../../shared/ui/Skeleton';
import { loadFailureText } from '../../../shared/api-client/load-failure';
import { BANNER_AUTOPLAY_MS } from './BannerSwiper';

/** Height of one notice line, px (matches .home-notice-title in home.css). */
const LINE_PX = 20;

/** Props of NoticeTicker. */
export interface NoticeTickerProps {
  /** The notices; undefined while the query has no answer yet. */
  notices: Notice[] | undefined;
  /** The query's error when it failed without data; its section 8 text is shown instead of the titles. */
  error?: unknown;
}

/**
 * The ticker: a skeleton bar while the notices load (never "No announcements" before the answer), the
 * load-failure text when they failed, "No announcements" only for an empty answer.
 */
export const NoticeTicker = memo(function NoticeTicker({ notices, error }: NoticeTickerProps) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const list = notices ?? [];
  const n = list.length;
  const [pos, setPos] = useState({ i: 0, animate: true });

  useEffect(() => {
    setPos({ i: 0, animate: false });
    if (n < 2) return;
    const id = window.setInterval(() => setPos((p) => ({ i: p.i >= n ? 1 : p.i + 1, animate: p.i < n })), BANNER_AUTOPLAY_MS);
    return () => window.clearInterval(id);
  }, [n]);

  const lines = n > 1 ? [...list, list[0]!] : list;
  return (
    <button type="button" className="home-notice" aria-label={t('notices')} onClick={() => navigate('/noticeList')}>
      <SoundOutline className="home-notice-icon" />
      <div className="home-notice-body">
        {notices === undefined && error ? (
          <span className="text-3">{loadFailureText(error)}</span>
        ) : notices === undefined ? (
          <ListSkeleton rows={1} inline />
        ) : n === 0 ? (
          <span className="text-3">{t('noNotices')}</span>
        ) : (
          <div
            className="home-notice-column"
            style={{ transform: `translateY(-${pos.i * LINE_PX}px)`, transition: pos.animate ? undefined : 'none' }}
            onTransitionEnd={() => {
              if (pos.i === n) setPos({ i: 0, animate: false });
            }}
          >
            {lines.map((x, k) => (
              <div key={k} className="home-notice-title" aria-hidden={k === n ? true : undefined}>
                {x.title}
              </div>
            ))}
          </div>
        )}
      </div>
      <RightOutline className="text-3" />
    </button>
  );
});
