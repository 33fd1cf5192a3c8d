/**
 * Proves that the routes and the side menu assembled from the features' declarations (features/<feature>/
 * <feature>.console.tsx, gathered by console-features.ts) are the console's: the same pages under the same paths behind
 * the same permissions, the menu's entries in the same order with the same labels and icons, no path declared twice.
 * The expected lists below are written out as data: a declaration that moves or drops one of these pages fails here; a
 * new domain's page may come anywhere in between without editing this file (its feature folder is all it touches).
 */
import { isValidElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import {
  AlertOutlined,
  AuditOutlined,
  CloudUploadOutlined,
  CustomerServiceOutlined,
  DownloadOutlined,
  FileTextOutlined,
  FundOutlined,
  GiftOutlined,
  IdcardOutlined,
  MessageOutlined,
  NotificationOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  SolutionOutlined,
  TeamOutlined,
  UploadOutlined,
  UserOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { assembleConsole, consoleMenu, consolePages, type ConsoleFeature } from './console-features';

/** The side menu, top to bottom: path, label key, icon, and the permission without which it is hidden. */
const MENU = [
  { path: '/users', label: 'nav.users', icon: UserOutlined },
  { path: '/kyc', label: 'nav.kyc', icon: IdcardOutlined },
  { path: '/withdrawals', label: 'nav.withdrawals', icon: UploadOutlined },
  { path: '/deposits', label: 'nav.deposits', icon: DownloadOutlined },
  { path: '/hot-wallet', label: 'nav.hotWallet', icon: WalletOutlined },
  { path: '/alerts', label: 'nav.alerts', icon: AlertOutlined },
  { path: '/reserves', label: 'nav.reserves', icon: SafetyCertificateOutlined },
  { path: '/otc-merchants', label: 'nav.otcMerchants', icon: ShopOutlined },
  { path: '/otc-appeals', label: 'nav.otcAppeals', icon: SolutionOutlined },
  { path: '/otc-ads', label: 'nav.otcAds', icon: NotificationOutlined },
  { path: '/app-versions', label: 'nav.appVersions', icon: CloudUploadOutlined },
  { path: '/activities', label: 'nav.activities', icon: GiftOutlined },
  { path: '/content', label: 'nav.content', icon: FileTextOutlined },
  { path: '/support', label: 'nav.support', icon: CustomerServiceOutlined, permission: 'support' },
  { path: '/support-canned', label: 'nav.supportCanned', icon: MessageOutlined, permission: 'support' },
  { path: '/earn-products', label: 'nav.earn', icon: FundOutlined },
  { path: '/audit', label: 'nav.audit', icon: AuditOutlined },
  { path: '/operators', label: 'nav.operators', icon: TeamOutlined, permission: 'operators' },
];

/**
 * The pages behind a session, under the layout, with the permission whose lack sends the operator to /users (besides
 * these: the index and any unknown path redirect to /users, and /login is outside the layout; app/router.tsx).
 */
const ROUTES = [
  { path: 'users' },
  { path: 'users/:userId' },
  { path: 'kyc' },
  { path: 'audit' },
  { path: 'operators', permission: 'operators' },
  { path: 'withdrawals' },
  { path: 'deposits' },
  { path: 'hot-wallet' },
  { path: 'alerts' },
  { path: 'reserves' },
  { path: 'otc-merchants' },
  { path: 'otc-appeals' },
  { path: 'otc-ads' },
  { path: 'app-versions' },
  { path: 'activities' },
  { path: 'content' },
  { path: 'support', permission: 'support' },
  { path: 'support-canned', permission: 'support' },
  { path: 'earn-products' },
];

function iconType(icon: ReactNode): unknown {
  return isValidElement(icon) ? icon.type : icon;
}

describe('console routes and menu from the features', () => {
  it('the menu has the entries, labels, icons and permissions, in order', () => {
    const known = new Set(MENU.map((e) => e.path));
    const menu = consoleMenu.filter((e) => known.has(e.path));
    expect(menu.map((e) => ({ path: e.path, label: e.label, icon: iconType(e.icon), ...(e.permission ? { permission: e.permission } : {}) }))).toEqual(MENU);
  });

  it('the routes are the pages, each with its permission, and every page is lazy', () => {
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    const known = new Set(ROUTES.map((r) => r.path));
    const pages = consolePages.filter((p) => known.has(p.path));
    expect(pages.map((p) => ({ path: p.path, ...(p.permission ? { permission: p.permission } : {}) })).sort(byPath)).toEqual([...ROUTES].sort(byPath));
    // React.lazy's component: loaded on first render, so each page stays its own chunk.
    for (const p of consolePages) expect((p.page as unknown as { $$typeof: symbol }).$$typeof).toBe(Symbol.for('react.lazy'));
  });

  it('no path and no menu position is declared twice', () => {
    const paths = consolePages.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    const orders = consoleMenu.map((e) => e.order);
    expect(new Set(orders).size).toBe(orders.length);
  });

  it('assembling refuses a path or a menu position declared twice, and a file without a declaration', () => {
    const page = consolePages[0]!.page;
    const a: ConsoleFeature = { pages: [{ path: 'x', page, menu: { label: 'nav.x', icon: null, order: 1 } }] };
    const b: ConsoleFeature = { pages: [{ path: 'x', page }] };
    const c: ConsoleFeature = { pages: [{ path: 'y', page, menu: { label: 'nav.y', icon: null, order: 1 } }] };
    expect(() => assembleConsole({ './a/a.console.tsx': { default: a }, './b/b.console.tsx': { default: b } })).toThrow(/x.*twice/);
    expect(() => assembleConsole({ './a/a.console.tsx': { default: a }, './c/c.console.tsx': { default: c } })).toThrow(/order 1.*twice/);
    expect(() => assembleConsole({ './d/d.console.tsx': {} })).toThrow(/d\.console\.tsx/);
  });
});
