// Component test of /assets/capitalRecords (assets' records): while the records query has no answer the
// list shows the skeleton and not "No records yet"; an empty answer shows that text (暂无记录 in zh).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { stubPendingFetch } from '../../../test/pending-fetch';
import { renderPage } from '../../../test/render-page';
import CapitalRecordsPage from './CapitalRecordsPage';

const emptyPage = (f: Record<string, string>) => ({ type: f.type ?? 'coinCharging', total: 0, deposits: [], withdrawals: [], transfers: [] });

beforeEach(() => {
  useAppStore.setState({ token: 't', userId: '7', isLogin: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CapitalRecordsPage first load', () => {
  it.each([
    ['en', 'No records yet'],
    ['zh', '暂无记录'],
  ] as const)('shows the skeleton while loading, never the empty text (%s)', async (lang, empty) => {
    stubPendingFetch();
    renderPage(<CapitalRecordsPage />, { path: '/assets/capitalRecords', url: '/assets/capitalRecords?type=coinCharging', lang });
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    expect(screen.queryByText(empty)).toBeNull();
  });

  it.each([
    ['en', 'No records yet'],
    ['zh', '暂无记录'],
  ] as const)('shows the empty text for an empty answer (%s)', async (lang, empty) => {
    mockApi({ 'asset/wallet/getRecords': emptyPage });
    renderPage(<CapitalRecordsPage />, { path: '/assets/capitalRecords', url: '/assets/capitalRecords?type=coinCharging', lang });
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });
});
