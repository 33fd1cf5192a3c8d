/** Home banner carousel rotating every 3 s (spec sections 2 and 9). */
import { Swiper } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Banner } from '@exchange/api';

/** Banner autoplay interval of the spec, ms. */
export const BANNER_AUTOPLAY_MS = 3000;

/** Carousel of `banners`; a branded card while none are loaded. */
export function BannerSwiper({ banners }: { banners: Banner[] | undefined }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const open = (b: Banner) => {
    if (!b.link) return;
    if (/^https?:\/\//.test(b.link)) window.open(b.link, '_blank', 'noopener');
    else navigate(b.link);
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
