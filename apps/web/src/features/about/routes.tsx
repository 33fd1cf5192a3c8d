/**
 * Routes of the about page, the user agreement and the privacy policy.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const About = lazyPage(() => import('./pages/AboutPage'), ['legal']);
const Agreement = lazyPage(() => import('./pages/AgreementPage'), ['legal']);
const PrivacyPolicy = lazyPage(() => import('./pages/PrivacyPage'), ['legal']);

export const routes: AppRoute[] = [
  { path: '/about', Page: About, order: 190 },
  { path: '/agreement', Page: Agreement, order: 200 },
  { path: '/aboutAgreement', Page: PrivacyPolicy, order: 210 },
];
