/**
 * Proves that the console's menu follows the operator's role (packages/api ROLE_PERMISSIONS): Operators only for the
 * admin role; the support chat and canned replies for support and admin; support, finance and compliance
 * see Users, KYC queue, the five wallet pages and Audit log. The server refuses the same routes
 * (apps/server admin.test.ts "roles"); this is what the operator is shown.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { OperatorRole } from '@exchange/api';
import { setLang } from '../shared/i18n';
import { setSession } from '../shared/session';
import { Layout } from './Layout';

/** Every label of today's menu, in its order (the admin sees them all). */
const TODAY = [
  'Users',
  'KYC queue',
  'Withdrawals',
  'Deposits',
  'Hot wallet',
  'Alerts',
  'Proof of reserves',
  'OTC merchants',
  'OTC appeals',
  'OTC ads',
  'App versions',
  'Activities',
  'Content',
  'Support chat',
  'Canned replies',
  'Savings products',
  'Audit log',
  'Operators',
];
/** The entries only some roles see: the support chat and canned replies (support, admin), Operators (admin). */
const ONLY_FOR: Readonly<Record<string, readonly OperatorRole[]>> = {
  'Support chat': ['support', 'admin'],
  'Canned replies': ['support', 'admin'],
  Operators: ['admin'],
};

function renderAs(role: OperatorRole) {
  setLang('en');
  setSession({ token: 't', operator: { id: '1', email: 'a@b.c', name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={['/users']}>
        <Layout />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Layout menu by role', () => {
  for (const role of ['support', 'finance', 'compliance', 'admin'] as const) {
    it(`${role}: ${role === 'admin' ? 'with' : 'without'} Operators`, () => {
      const { unmount } = renderAs(role);
      // (jsdom lays nothing out: antd's menu counts as hidden to the accessibility tree there.)
      const items = screen.getAllByRole('menuitem', { hidden: true }).map((e) => e.textContent ?? '');
      // Today's pages in their order; a new domain's page (from its feature folder) may stand anywhere in between.
      expect(items.filter((i) => TODAY.includes(i))).toEqual(TODAY.filter((l) => ONLY_FOR[l]?.includes(role) ?? true));
      unmount();
    });
  }
});
