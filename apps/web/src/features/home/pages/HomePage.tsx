/**
 * Home (/ and /home, spec section 2): header, banners (3 s), notice ticker, top pairs, quick
 * buttons and futures promo, ranking tabs. Pull to refresh (offset 46, end delay 1 s) reloads
 * banners and notices; the lists poll every 5 s while the page is shown. Every section is memoised, so an
 * answer re-renders only the section it feeds (the home screen's blocking time).
 */
import { useLayoutEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { dismissBootShell } from '../../../shared/ui/boot-shell';
import { HomeHeader } from '../components/HomeHeader';
import { BannerSwiper } from '../components/BannerSwiper';
import { NoticeTicker } from '../components/NoticeTicker';
import { TopPairs } from '../components/TopPairs';
import { QuickActions } from '../components/QuickActions';
import { RankingList } from '../components/RankingList';
import { PullRefresh } from '../components/PullRefresh';
import { bannersQuery, useBanners } from '../api/banners';
import { noticesQuery, useNotices } from '../../../shared/content-api';
import { useIndexCoin } from '../api/index-coin';
import '../home.css';

/** Pull-to-refresh distance of the spec (section 9), px. */
export const PULL_OFFSET_PX = 46;
/** Pull-to-refresh end delay of the spec (section 9), ms. */
export const PULL_END_DELAY_MS = 1000;

/** The home page. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const qc = useQueryClient();
  const lang = useAppStore((s) => s.currentLangue);
  const banners = useBanners();
  const notices = useNotices();
  const top = useIndexCoin('TOP');
  // The page's shell shows the first banner until the app has it (shared/ui/boot-shell.ts): it goes once the
  // banners are answered (or failed), so the banner never flickers to the empty card in between.
  const bannersSettled = banners.status !== 'pending';
  useLayoutEffect(() => {
    if (bannersSettled) dismissBootShell();
  }, [bannersSettled]);

  const refresh = async () => {
    await Promise.allSettled([qc.refetchQueries({ queryKey: bannersQuery(lang).queryKey }), qc.refetchQueries({ queryKey: noticesQuery(lang).queryKey })]);
  };

  return (
    <div className="home">
      <HomeHeader />
      <PullRefresh
        onRefresh={refresh}
        threshold={PULL_OFFSET_PX}
        headHeight={PULL_OFFSET_PX}
        completeDelay={PULL_END_DELAY_MS}
        texts={{ pulling: t('pull.pulling'), canRelease: t('pull.release'), refreshing: t('pull.refreshing'), complete: t('pull.done') }}
      >
        <div className="home-body">
          <BannerSwiper banners={banners.data} />
          <NoticeTicker notices={notices.data} error={notices.isError ? notices.error : undefined} />
          <TopPairs pairs={top.data} />
          <QuickActions />
          <RankingList />
        </div>
      </PullRefresh>
    </div>
  );
}
