/** Vertically rotating notice line (spec section 2); tapping opens /noticeList. */
import { Swiper } from 'antd-mobile';
import { RightOutline, SoundOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Notice } from '@exchange/api';
import { BANNER_AUTOPLAY_MS } from './BannerSwiper';

/** The ticker; shows "No announcements" when empty. */
export function NoticeTicker({ notices }: { notices: Notice[] | undefined }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const list = notices ?? [];
  return (
    <button type="button" className="home-notice" aria-label={t('notices')} onClick={() => navigate('/noticeList')}>
      <SoundOutline className="home-notice-icon" />
      <div className="home-notice-body">
        {list.length === 0 ? (
          <span className="text-3">{t('noNotices')}</span>
        ) : (
          <Swiper direction="vertical" autoplay autoplayInterval={BANNER_AUTOPLAY_MS} loop={list.length > 1} indicator={() => null} style={{ '--height': '20px' }} allowTouchMove={false}>
            {list.map((n) => (
              <Swiper.Item key={n.id}>
                <div className="home-notice-title">{n.title}</div>
              </Swiper.Item>
            ))}
          </Swiper>
        )}
      </div>
      <RightOutline className="text-3" />
    </button>
  );
}
