/** Entry point of the mobile web app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shared/ui/antd-compat';
import './shared/theme';
import './shared/i18n';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
