// Component test of the inbox: while the messages query has no answer the list shows the skeleton and not
// "No messages yet"; an empty answer shows that text (暂无消息 in zh).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { stubPendingFetch } from '../../../test/pending-fetch';
import { renderPage } from '../../../test/render-page';
import MessagePage from './MessagePage';

beforeEach(() => {
  useAppStore.setState({ token: 't', userId: '7', isLogin: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MessagePage first load', () => {
  it.each([
    ['en', 'No messages yet'],
    ['zh', '暂无消息'],
  ] as const)('shows the skeleton while loading, never the empty text (%s)', async (lang, empty) => {
    stubPendingFetch();
    renderPage(<MessagePage />, { path: '/message', lang });
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('skeleton')).toBeInTheDocument();
    expect(screen.queryByText(empty)).toBeNull();
  });

  it.each([
    ['en', 'No messages yet'],
    ['zh', '暂无消息'],
  ] as const)('shows the empty text for an empty answer (%s)', async (lang, empty) => {
    mockApi({ 'member/message/list': { records: [], total: 0, page: 1, pageSize: 20 } });
    renderPage(<MessagePage />, { path: '/message', lang });
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton')).toBeNull();
  });
});
