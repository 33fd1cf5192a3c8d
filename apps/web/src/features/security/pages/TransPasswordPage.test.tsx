// Page test of the transaction-password PIN entry (change mode) with a stubbed API: the old PIN, the new one and its
// confirmation are typed on the on-screen number keyboard; a mismatched confirmation starts the new PIN again without
// calling the server; a matching one sends exactly oldTransPassword / transPassword / confirmTransPassword.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import PostPasswordChangePage from './PostPasswordChangePage';

const SECURITY = { phone: '', areaCode: '86', mail: 'a***@b.c', googleBound: false, transPasswordSet: true, withdrawLock: null, lastLogin: null };

/** Types `digits` on the number keyboard. */
async function typePin(digits: string) {
  for (const d of digits) {
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: d }));
    });
  }
}

// PasscodeInput scrolls its focused cells into view; jsdom has no layout.
beforeAll(() => {
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('change transaction password', () => {
  it('restarts on a mismatch and sends the three fields on a match', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'member/security/getSecurity': SECURITY, 'member/security/changeTransPassword': null });
    renderPage(<PostPasswordChangePage />, { path: '/accountCenter/postPasswordChange' });
    expect(await screen.findByText('Current transaction password')).toBeInTheDocument();
    await typePin('111111');
    expect(await screen.findByText('New transaction password')).toBeInTheDocument();
    await typePin('123456');
    expect(await screen.findByText('Enter it again')).toBeInTheDocument();
    await typePin('123465');
    expect(await screen.findByText('The two transaction passwords do not match, please enter them again')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'member/security/changeTransPassword')).toBe(false);
    await typePin('123456');
    await typePin('123456');
    expect(await screen.findByText('Transaction password changed')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.path === 'member/security/changeTransPassword')).toHaveLength(1));
    expect(calls.find((c) => c.path === 'member/security/changeTransPassword')!.form).toEqual({
      oldTransPassword: '111111',
      transPassword: '123456',
      confirmTransPassword: '123456',
    });
  });
});
