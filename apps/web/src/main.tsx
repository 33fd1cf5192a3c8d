/** Entry point of the mobile web app. */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './shared/ui/antd-compat';
import './shared/theme';
import './shared/i18n';
import { App } from './app/App';
import { limitBootShell } from './shared/ui/boot-shell';
import { registerServiceWorker } from './shared/pwa/register-sw';

// A transition: React renders the first screen in slices of a few ms that let the browser breathe, instead
// of one long task that blocks input (Lighthouse's Total Blocking Time).
limitBootShell();
startTransition(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
// The PWA's service worker (offline start onto the no-network screen; spec section 8), after the load event.
registerServiceWorker();
