/** GET data/data/getBanners (spec section 7): bannerType DATA_BANNER, global by language. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Banner } from '@exchange/api';
import { apiGet } from '../../../shared/api-client';
import { useAppStore, type Lang } from '../../../shared/storage';
import { globalOf } from '../../../shared/content-api';

/** queryOptions of the home banners in `lang`. */
export function bannersQuery(lang: Lang) {
  return queryOptions({
    queryKey: ['home', 'banners', lang] as const,
    queryFn: ({ signal }) => apiGet<Banner[]>(API_PATHS.getBanners, { bannerType: 'DATA_BANNER', global: globalOf(lang) }, { signal, silent: true }),
    staleTime: 60_000,
  });
}

/** Banners of the current language. */
export function useBanners() {
  const lang = useAppStore((s) => s.currentLangue);
  return useQuery(bannersQuery(lang));
}
