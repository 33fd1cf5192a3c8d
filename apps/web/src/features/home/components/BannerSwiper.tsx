/**
 * Home banner carousel rotating every 3 s (spec sections 2 and 9). A tap opens the banner's link
 * (external ones in a new tab); sign-up links take a logged-in user to the trade screen (bannerTarget).
 */
import { Swiper } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Banner } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { bannerTarget } from './banner-link';

/** Banner autoplay interval of the spec, ms. */
export const BANNER_AUTOPLAY_MS = 3000;

/** Carousel of `banners`; a branded card while none are loaded. */
export function BannerSwiper({ banners }: { banners: Banner[] | undefined }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const open = (b: Banner) => {
    const to = bannerTarget(b.link, isLogin);
    if (!to) return;
    if (/^https?:\/\//.test(to)) window.open(to, '_blank', 'noopener');
    else navigate(to);
  };
  if (!banners || banners.length === 0) {
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
      <Swiper autoplay autoplayInterval={BANNER_AUTOPLAY_MS} loop={banners.length > 1} indicatorProps={{ className: 'home-banner-dots' }}>
        {banners.map((b, i) => (
          <Swiper.Item key={b.id} onClick={() => open(b)}>
            <img className="home-banner-img" src={b.bannerUrl} alt={b.title || t('bannerN', { n: i + 1 })} draggable={false} />
          </Swiper.Item>
        ))}
      </Swiper>
    </section>
  );
}
