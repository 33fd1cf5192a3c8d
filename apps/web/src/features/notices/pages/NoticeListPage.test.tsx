// Component test of /noticeList: while the notices query has no answer the page shows the skeleton and not
// "No announcements yet"; an empty answer shows that text (暂无公告 in zh); a failure shows the load-failure block.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { mockApi } from '../../../test/mock-api';
import { stubPendingFetch } from '../../../test/pending-fetch';
import { renderPage } from '../../../test/render-page';
import NoticeListPage from './NoticeListPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NoticeListPage first load', () => {
  it.each([
    ['en', 'No announcements yet'],
    ['zh', '暂无公告'],
  ] as const)('shows the skeleton while loading, never the empty text (%s)', async (lang, empty) => {
    stubPendingFetch();
    renderPage(<NoticeListPage />, { path: '/noticeList', lang });
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    expect(screen.queryByText(empty)).toBeNull();
  });

  it.each([
    ['en', 'No announcements yet'],
    ['zh', '暂无公告'],
  ] as const)('shows the empty text for an empty answer (%s)', async (lang, empty) => {
    mockApi({ 'data/data/getNotices': [] });
    renderPage(<NoticeListPage />, { path: '/noticeList', lang });
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });

  it('shows the load-failure block for a failure, not the empty text', async () => {
    mockApi({ 'data/data/getNotices': { errorCode: 'system_error', errorMessage: 'Server busy' } });
    renderPage(<NoticeListPage />, { path: '/noticeList' });
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByText('No announcements yet')).toBeNull();
  });
});
