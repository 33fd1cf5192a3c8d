/**
 * No-network screen (spec sections 2 and 8): while the device is offline (the bridge's network status: the Network
 * plugin in the shell, navigator.onLine in a browser) a full-screen overlay says 'No network, please check network
 * settings' with a reload button. A reload while offline still gets here: the service worker serves the app shell
 * from its cache (vite.config.ts, PWA), the app starts offline and shows this screen.
 */
import { useEffect, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { watchNetwork } from '../../../shared/bridge';
import { dismissBootShell } from '../../../shared/ui/boot-shell';

/** Tracks the device's connectivity through the bridge. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => watchNetwork(setOnline), []);
  return online;
}

/** The overlay; renders nothing while online. */
export function NetworkOverlay() {
  const online = useOnline();
  const { t } = useTranslation('common');
  // The page's boot shell lies over the app until the first page's content is there (home: its banners), which never
  // comes offline: the no-network screen takes its place at once.
  useEffect(() => {
    if (!online) dismissBootShell();
  }, [online]);
  if (online) return null;
  return (
    <div
      role="alertdialog"
      aria-label={t('offline.title')}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex: 2000,
        background: 'var(--ex-bg)',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 32,
        textAlign: 'center',
      }}
    >
      <svg width="96" height="96" viewBox="0 0 96 96" aria-hidden="true">
        <circle cx="48" cy="48" r="44" fill="var(--ex-bg-2)" />
        <path
          d="M24 42a34 34 0 0 1 48 0M32 51a22 22 0 0 1 32 0M40 60a10 10 0 0 1 16 0"
          stroke="var(--ex-text-3)"
          strokeWidth="5"
          fill="none"
          strokeLinecap="round"
        />
        <path d="M28 28l40 40" stroke="var(--ex-red)" strokeWidth="5" strokeLinecap="round" />
      </svg>
      <p style={{ margin: '20px 0 24px', fontSize: 15 }}>{t('offline.title')}</p>
      <Button color="primary" onClick={() => window.location.reload()} style={{ minWidth: 160 }}>
        {t('offline.reload')}
      </Button>
    </div>
  );
}
