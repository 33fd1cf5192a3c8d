/**
 * /downloadApp: the download page edited in the console (page `download`): its text, the version the links
 * lead to, and for Android and iOS a QR code of the link (drawn in the browser) and a button that opens it. A link
 * that is a path of this site is made absolute for the QR code, so a phone scanning it reaches this server.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useContentPage } from '../../../shared/content-api';
import { ContentText } from '../../../shared/content/ContentText';
import { absoluteLink, LinkQr } from '../components/LinkQr';
import '../help.css';

/** Download page. */
export default function DownloadAppPage() {
  const { t } = useTranslation('help');
  const q = useContentPage('download');
  const p = q.data;
  const links = p
    ? (
        [
          ['android', p.androidUrl],
          ['ios', p.iosUrl],
        ] as const
      ).filter(([, url]) => url !== '')
    : [];
  return (
    <div className="help-page">
      <PageHeader title={p?.title ?? t('download.title')} />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : !p ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <div className="help-download-head">
            <svg width="56" height="56" viewBox="0 0 64 64" aria-hidden="true">
              <rect width="64" height="64" rx="14" fill="var(--ex-primary)" />
              <path d="M18 40l10-12 8 8 10-14" stroke="#fff" strokeWidth="5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <h2>{p.title}</h2>
            {p.version && <div className="text-3 num">{t('download.version', { version: p.version })}</div>}
          </div>
          {links.length === 0 ? (
            <EmptyState text={t('download.noLinks')} />
          ) : (
            <div className="help-download-links">
              {links.map(([platform, url]) => {
                const name = t(`download.${platform}`);
                return (
                  <div key={platform} className="help-download-card">
                    <strong>{name}</strong>
                    <LinkQr text={absoluteLink(url, window.location.origin)} size={132} label={t('download.qrLabel', { platform: name })} />
                    <Button
                      size="small"
                      color="primary"
                      fill="outline"
                      onClick={() => void window.open(absoluteLink(url, window.location.origin), '_blank', 'noopener')}
                    >
                      {t('download.open', { platform: name })}
                    </Button>
                  </div>
                );
              })}
            </div>
          )}
          <div className="help-download-text">
            <ContentText text={p.content} />
          </div>
        </>
      )}
    </div>
  );
}
