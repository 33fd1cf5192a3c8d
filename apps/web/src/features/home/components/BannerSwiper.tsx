/**
 * Home banner carousel rotating every 3 s (spec sections 2 and 9). A tap opens the banner's link
 * (external ones in a new tab); sign-up links take a logged-in user to the trade screen (bannerTarget).
 *
 * Built on native CSS scroll-snap (the finger swipes the strip, the browser snaps to a slide) with a
 * 3 s timer that scrolls to the next slide and back to the first after the last; dots follow the
 * scroll position. No antd Swiper: it brought react-spring and use-gesture into the home page's first
 * load and animated every frame on the main thread. Autoplay pauses while a finger
 * is on the strip.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Banner } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { bannerTarget } from './banner-link';

/** Banner autoplay interval of the spec, ms. */
export const BANNER_AUTOPLAY_MS = 3000;

/** Index of the next slide after `i` of `n`, wrapping to the first after the last. */
export function nextSlide(i: number, n: number): number {
  return n <= 0 ? 0 : (i + 1) % n;
}

/** Carousel of `banners`; a branded card while none are loaded. */
export const BannerSwiper = memo(function BannerSwiper({ banners }: { banners: Banner[] | undefined }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const track = useRef<HTMLDivElement>(null);
  const touching = useRef(false);
  const [index, setIndex] = useState(0);
  const n = banners?.length ?? 0;

  useEffect(() => {
    if (n < 2) return;
    const id = window.setInterval(() => {
      const el = track.current;
      if (!el || touching.current || el.clientWidth === 0) return;
      const next = nextSlide(Math.round(el.scrollLeft / el.clientWidth), n);
      el.scrollTo({ left: next * el.clientWidth, behavior: 'smooth' });
    }, BANNER_AUTOPLAY_MS);
    return () => window.clearInterval(id);
  }, [n]);

  const open = (b: Banner) => {
    const to = bannerTarget(b.link, isLogin);
    if (!to) return;
    if (/^https?:\/\//.test(to)) window.open(to, '_blank', 'noopener');
    else navigate(to);
  };
  if (!banners || n === 0) {
    return (
      <div className="home-banner home-banner-empty" aria-label={t('banners')}>
        <div>
          <div className="home-banner-title">{t('bannerFallbackTitle')}</div>
          <div className="home-banner-sub">{t('bannerFallbackSub')}</div>
        </div>
      </div>
    );
  }
  return (
    <section className="home-banner" aria-label={t('banners')} aria-roledescription="carousel">
      <div
        ref={track}
        className="home-banner-track"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setIndex(Math.round(el.scrollLeft / el.clientWidth));
        }}
        onTouchStart={() => {
          touching.current = true;
        }}
        onTouchEnd={() => {
          touching.current = false;
        }}
        onTouchCancel={() => {
          touching.current = false;
        }}
      >
        {banners.map((b, i) => (
          <div key={b.id} className="home-banner-slide" aria-roledescription="slide" onClick={() => open(b)}>
            <img
              className="home-banner-img"
              src={b.bannerUrl}
              alt={b.title || t('bannerN', { n: i + 1 })}
              draggable={false}
              loading={i === 0 ? 'eager' : 'lazy'}
              fetchPriority={i === 0 ? 'high' : 'low'}
            />
          </div>
        ))}
      </div>
      {n > 1 && (
        <div className="home-banner-dots" aria-hidden="true">
          {banners.map((b, i) => (
            <span key={b.id} className={i === index ? 'active' : ''} />
          ))}
        </div>
      )}
    </section>
  );
});
