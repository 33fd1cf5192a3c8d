// Proves the action guards of spec section 4 by rendering them: logged out, an action asks
// 'You are not logged in, log in?' and accepting goes to /login?redirect=<page>; logged in without
// a nickname it asks 'No nickname set, set one?' and accepting opens the nickname dialog; with a
// nickname the action proceeds without a prompt.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import Dialog from 'antd-mobile/es/components/dialog';
import type { Member } from '@exchange/api';
import { useRequireLogin, useRequireNickname, useRequireVerified } from './guards';
import { useAppStore, useUiStore } from '../storage';
import { memberQueryKey } from '../session';
import { i18n } from '../i18n';

const member = (nickName: string, cardState = ''): Member => ({
  userId: '42',
  uuid: 'u-42-abcdefghij',
  nickName,
  phone: '',
  mail: 'a@b.co',
  areaCode: '86',
  cardNo: '',
  cardState,
});

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

function Action({ kind, onDone }: { kind: 'login' | 'nickname' | 'verified'; onDone: () => void }) {
  const requireLogin = useRequireLogin();
  const requireNickname = useRequireNickname();
  const requireVerified = useRequireVerified();
  const guard = kind === 'login' ? requireLogin : kind === 'nickname' ? requireNickname : requireVerified;
  return (
    <button type="button" onClick={() => guard() && onDone()}>
      act
    </button>
  );
}

function setup(kind: 'login' | 'nickname' | 'verified', qc = new QueryClient()) {
  let done = 0;
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/transaction']}>
          <Routes>
            <Route path="/transaction" element={<Action kind={kind} onDone={() => done++} />} />
            <Route path="/login" element={<Where />} />
            <Route path="/personalCenter" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { done: () => done };
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  useUiStore.setState({ nicknameDialogOpen: false });
});
afterEach(() => {
  // Imperative dialogs live in containers of their own under <body>; drop them between tests.
  Dialog.clear();
  document.body.innerHTML = '';
});

describe('useRequireLogin', () => {
  it('asks to log in when logged out and goes to /login with a redirect on accept', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    const s = setup('login');
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(0);
    expect(await screen.findByText('You are not logged in, log in?')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('Log in')));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login?redirect=%2Ftransaction'));
  });

  it('lets the action through when logged in', () => {
    useAppStore.setState({ token: 't', userId: '42', isLogin: true });
    const s = setup('login');
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(1);
    expect(screen.queryByText('You are not logged in, log in?')).toBeNull();
  });

  it('speaks Chinese too', async () => {
    await i18n.changeLanguage('zh');
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    setup('login');
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(await screen.findByText('您还未登录，是否去登录？')).toBeInTheDocument();
  });
});

describe('useRequireNickname', () => {
  it('prompts for a nickname and opens the dialog on accept', async () => {
    useAppStore.setState({ token: 't', userId: '42', isLogin: true });
    const qc = new QueryClient();
    qc.setQueryData(memberQueryKey('42'), member(''));
    const s = setup('nickname', qc);
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(0);
    expect(await screen.findByText('No nickname set, set one?')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('Set nickname')));
    await waitFor(() => expect(useUiStore.getState().nicknameDialogOpen).toBe(true));
  });

  it('lets the action through with a nickname', () => {
    useAppStore.setState({ token: 't', userId: '42', isLogin: true });
    const qc = new QueryClient();
    qc.setQueryData(memberQueryKey('42'), member('alice'));
    const s = setup('nickname', qc);
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(1);
  });

  it('asks to log in first when logged out', async () => {
    useAppStore.setState({ token: '', userId: '', isLogin: false });
    setup('nickname');
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(await screen.findByText('You are not logged in, log in?')).toBeInTheDocument();
    expect(screen.queryByText('No nickname set, set one?')).toBeNull();
  });
});

describe('useRequireVerified', () => {
  it('prompts to verify and goes to /personalCenter on accept (spec section 4)', async () => {
    useAppStore.setState({ token: 't', userId: '42', isLogin: true });
    const qc = new QueryClient();
    qc.setQueryData(memberQueryKey('42'), member('alice', 'PENDING'));
    const s = setup('verified', qc);
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(0);
    expect(await screen.findByText('Please complete identity verification first')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText('Verify')));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/personalCenter'));
  });

  it('lets a verified member through (cardState PASS)', () => {
    useAppStore.setState({ token: 't', userId: '42', isLogin: true });
    const qc = new QueryClient();
    qc.setQueryData(memberQueryKey('42'), member('alice', 'PASS'));
    const s = setup('verified', qc);
    fireEvent.click(screen.getByRole('button', { name: 'act' }));
    expect(s.done()).toBe(1);
  });
});
