/**
 * Routes of the account centre (security): bindings, passwords, Google authenticator, sessions, security log and the
 * API keys.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const SECURITY_NS = ['security', 'account'];
const AccountCenter = lazyPage(() => import('./pages/AccountCenterPage'), SECURITY_NS);
const Bind = lazyPage(() => import('./pages/BindPage'), SECURITY_NS);
const ChangePassword = lazyPage(() => import('./pages/ChangePasswordPage'), SECURITY_NS);
const PostPasswordSet = lazyPage(() => import('./pages/TransPasswordPage'), SECURITY_NS);
const PostPasswordChange = lazyPage(() => import('./pages/PostPasswordChangePage'), SECURITY_NS);
const PostPasswordForget = lazyPage(() => import('./pages/PostPasswordForgetPage'), SECURITY_NS);
const GoogleAuthenticator = lazyPage(() => import('./pages/GoogleAuthenticatorPage'), SECURITY_NS);
const CloseGoogle = lazyPage(() => import('./pages/CloseGooglePage'), SECURITY_NS);
const Devices = lazyPage(() => import('./pages/DevicesPage'), SECURITY_NS);
const Activity = lazyPage(() => import('./pages/ActivityPage'), SECURITY_NS);
// API keys of the Binance-compatible API (the account centre's "API management").
const API_KEYS_NS = ['apikeys', ...SECURITY_NS];
const ApiKeys = lazyPage(() => import('./pages/ApiKeysPage'), API_KEYS_NS);
const ApiKeyCreate = lazyPage(() => import('./pages/ApiKeyCreatePage'), API_KEYS_NS);

export const routes: AppRoute[] = [
  // No router login guard (spec section 2); logged out, each page asks to log in.
  { path: '/accountCenter', Page: AccountCenter, fallthrough: true, order: 220 },
  { path: '/accountCenter/bind', Page: Bind, fallthrough: true, order: 230 },
  { path: '/accountCenter/bindSecond', Page: Bind, fallthrough: true, order: 240 },
  { path: '/accountCenter/change', Page: ChangePassword, fallthrough: true, order: 250 },
  { path: '/accountCenter/postPasswordSet', Page: PostPasswordSet, fallthrough: true, order: 260 },
  { path: '/accountCenter/postPasswordChange', Page: PostPasswordChange, fallthrough: true, order: 270 },
  { path: '/accountCenter/postPasswordForget', Page: PostPasswordForget, fallthrough: true, order: 280 },
  { path: '/accountCenter/googleAuthenticator', Page: GoogleAuthenticator, fallthrough: true, order: 290 },
  { path: '/accountCenter/closeGoogle', Page: CloseGoogle, fallthrough: true, order: 300 },
  // Sub-pages of the account centre the spec does not name (sessions and security log, as Binance).
  { path: '/accountCenter/devices', Page: Devices, login: true, fallthrough: true, beyondSpec: true, order: 380 },
  { path: '/accountCenter/activity', Page: Activity, login: true, fallthrough: true, beyondSpec: true, order: 390 },
  // API management (guarded like the other sub-pages the spec does not name).
  { path: '/accountCenter/apiKeys', Page: ApiKeys, login: true, fallthrough: true, beyondSpec: true, order: 400 },
  { path: '/accountCenter/apiKeys/create', Page: ApiKeyCreate, login: true, fallthrough: true, beyondSpec: true, order: 410 },
];
