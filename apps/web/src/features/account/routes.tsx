/**
 * Routes of the account: log in, register, forgotten password and the area-code picker.
 * Assembled with every feature's routes by app/routes.tsx, ordered by `order`. Only lazyPage and dynamic imports
 * here: app/routes.tsx loads this file eagerly, so a static import of a page would put it in the initial chunk.
 */
import { lazyPage, type AppRoute } from '../../shared/routing';

const Login = lazyPage(() => import('./pages/LoginPage'), ['account']);
const Register = lazyPage(() => import('./pages/RegisterPage'), ['account']);
const Forget = lazyPage(() => import('./pages/ForgetPage'), ['account']);
const ChooseArea = lazyPage(() => import('./pages/ChooseAreaPage'), ['account']);

export const routes: AppRoute[] = [
  { path: '/login', Page: Login, order: 110 },
  { path: '/register', Page: Register, order: 120 },
  { path: '/forget', Page: Forget, order: 130 },
  { path: '/chooseArea', Page: ChooseArea, order: 140 },
];
