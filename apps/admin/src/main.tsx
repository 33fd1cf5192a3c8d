/** Entry of the operator console (apps/admin): i18n, styles, the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shared/i18n';
import './styles.css';
import { App } from './app/App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
