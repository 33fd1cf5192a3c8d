/**
 * Proves the console's content page against a stubbed API (fetch, answers shaped like packages/api content.ts): the
 * notices tab lists each item with both titles and its status; Edit opens the editor whose preview shows the draft
 * as typed (headings and paragraphs, either language) before anything is saved; support saves the draft (the body
 * sent is the whole draft) and sees no Publish button; an admin's Publish saves the changed draft first, then
 * publishes it; the body format splits headings and paragraphs as the app does.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { AdminContentItem, OperatorRole } from '@exchange/api';
import { setLang } from '../../shared/i18n';
import { setSession } from '../../shared/session';
import ContentPage from './ContentPage';
import { contentBlocks } from './content-text';

const OK = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }));
const fields = {
  titleZh: '系统维护公告',
  titleEn: 'Scheduled maintenance',
  bodyZh: '维护正文',
  bodyEn: 'Maintenance text',
  imageZh: '',
  imageEn: '',
  link: '',
  androidUrl: '',
  iosUrl: '',
  version: '',
  sort: 0,
  parentId: '',
};
const notice: AdminContentItem = {
  id: '7',
  kind: 'notice',
  slug: 'maintenance',
  status: 'PUBLISHED',
  draft: fields,
  published: fields,
  createdAt: 1,
  updatedAt: 1_700_000_000_000,
  publishedAt: 1_700_000_000_000,
  firstPublishedAt: 1,
  updatedBy: 'seed',
};

function stubApi() {
  const calls: Array<{ url: string; body: Record<string, unknown> | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : undefined;
      calls.push({ url, body });
      if (url.startsWith('/api/admin/content/list?kind=notice')) return OK({ total: 1, page: 1, pageSize: 100, records: [notice] });
      if (url.startsWith('/api/admin/content/list')) return OK({ total: 0, page: 1, pageSize: 100, records: [] });
      if (url === '/api/admin/content/update') return OK({ ...notice, status: 'CHANGED', draft: { ...fields, ...body } });
      if (url === '/api/admin/content/publish') return OK({ ...notice, status: 'PUBLISHED' });
      return OK(null);
    }),
  );
  return calls;
}

function renderAs(role: OperatorRole) {
  setLang('en');
  setSession({ token: 'op-token', operator: { id: '9', email: `${role}@ops.test`, name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>
          <ContentPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

async function openNotice() {
  fireEvent.click(screen.getByRole('tab', { name: 'Notices' }));
  const row = (await screen.findByText('Scheduled maintenance')).closest('tr')!;
  expect(within(row).getByText('系统维护公告')).toBeTruthy();
  expect(within(row).getByText('Published')).toBeTruthy();
  fireEvent.click(within(row).getByRole('button', { name: 'Edit Scheduled maintenance' }));
  return screen.findByTestId('content-preview');
}

afterEach(() => vi.unstubAllGlobals());

describe('content page', () => {
  it('support edits a notice: the preview follows the form, Save draft sends the whole draft, no Publish', { timeout: 90_000 }, async () => {
    const calls = stubApi();
    renderAs('support');
    const preview = await openNotice();
    expect(within(preview).getByText('系统维护公告')).toBeTruthy(); // the preview opens in Chinese
    fireEvent.change(screen.getByLabelText('Text (English)'), { target: { value: '## Window\n\nFrom 02:00 to 04:00.' } });
    fireEvent.click(screen.getByText('English'));
    expect(within(preview).getByRole('heading', { name: 'Window' })).toBeTruthy();
    expect(within(preview).getByText('From 02:00 to 04:00.')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/admin/content/update')).toBe(false);
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/admin/content/update')).toBeTruthy());
    expect(calls.find((c) => c.url === '/api/admin/content/update')!.body).toEqual({ ...fields, bodyEn: '## Window\n\nFrom 02:00 to 04:00.', id: '7' });
  });

  it('an admin publishes: the changed draft is saved first, then published', { timeout: 90_000 }, async () => {
    const calls = stubApi();
    renderAs('admin');
    await openNotice();
    fireEvent.change(screen.getByLabelText('Title (English)'), { target: { value: 'Maintenance on Thursday' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/admin/content/publish')).toBeTruthy());
    const order = calls.filter((c) => c.url === '/api/admin/content/update' || c.url === '/api/admin/content/publish');
    expect(order.map((c) => c.url)).toEqual(['/api/admin/content/update', '/api/admin/content/publish']);
    expect(order[0]!.body).toMatchObject({ id: '7', titleEn: 'Maintenance on Thursday' });
    expect(order[1]!.body).toEqual({ id: '7' });
  });

  it('the body format: "## " headings, blank lines between paragraphs, line breaks kept', () => {
    expect(contentBlocks('## A\n\none\ntwo\n\n\n## B\nthree')).toEqual([
      { kind: 'heading', text: 'A' },
      { kind: 'paragraph', text: 'one\ntwo' },
      { kind: 'heading', text: 'B' },
      { kind: 'paragraph', text: 'three' },
    ]);
  });
});
