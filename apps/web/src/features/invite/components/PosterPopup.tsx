/**
 * The share-poster popup (spec section 2): draws the poster (lib/poster.ts) when opened, with the spec's toasts
 * (section 8 and 9): a loading toast while drawing (cleared when done, at the latest after 60 s), 'Poster generation
 * failed' when the browser cannot draw it; "Save poster" saves it through the bridge (the native shell's photo album,
 * a download on the web) with 'Image saved' or 'Save picture failed', and a refused photo permission offers to open
 * the settings (section 6).
 */
import { useEffect, useState } from 'react';
import Popup from 'antd-mobile/es/components/popup';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { openAppSettings, saveImage } from '../../../shared/bridge';
import { loadFeedback, showTimedToast, withFeedback } from '../../../shared/ui/feedback';
import { renderPoster, type PosterTexts } from '../lib/poster';

/** How long the poster's loading toast may stay (spec section 9: "poster loading toast cleared after 60 s"). */
export const POSTER_LOADING_MS = 60_000;

/** The popup; `texts` are the poster's (code and link included). */
export function PosterPopup({ visible, onClose, texts }: { visible: boolean; onClose: () => void; texts: PosterTexts }) {
  const { t } = useTranslation('invite');
  const [url, setUrl] = useState('');
  const key = JSON.stringify(texts);
  useEffect(() => {
    if (!visible) return;
    let live = true;
    setUrl('');
    showTimedToast({ icon: 'loading', content: t('poster.loading'), maskClickable: true }, POSTER_LOADING_MS);
    renderPoster(JSON.parse(key) as PosterTexts).then(
      (u) => {
        withFeedback(({ Toast }) => Toast.clear());
        if (live) setUrl(u);
      },
      () => {
        withFeedback(({ Toast }) => Toast.clear());
        if (live) showToast(t('poster.failed'));
      },
    );
    return () => {
      live = false;
    };
  }, [visible, key, t]);

  const onSave = async () => {
    if (!url) return;
    const r = await saveImage(url, `invitation-${texts.code}.png`);
    if (r === 'saved') showToast(t('poster.saved'));
    else if (r === 'failed') showToast(t('poster.saveFailed'));
    else if (
      await (await loadFeedback()).Dialog.confirm({ content: t('poster.permission'), confirmText: t('poster.openSettings'), cancelText: t('common:cancel') })
    )
      openAppSettings();
  };

  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="iv-poster-sheet" destroyOnClose>
      <div role="dialog" aria-label={t('poster.title')} className="iv-poster-body">
        <div className="iv-poster-title">{t('poster.title')}</div>
        <div className="iv-poster-frame">
          {url ? <img src={url} alt={t('poster.alt')} className="iv-poster-img" data-testid="poster-image" /> : <div className="iv-poster-placeholder" />}
        </div>
        <div className="iv-poster-actions">
          <button type="button" className="iv-btn iv-btn-ghost" onClick={onClose}>
            {t('common:cancel')}
          </button>
          <button type="button" className="iv-btn iv-btn-primary" onClick={() => void onSave()} disabled={!url}>
            {t('poster.save')}
          </button>
        </div>
      </div>
    </Popup>
  );
}
