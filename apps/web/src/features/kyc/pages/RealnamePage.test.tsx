// Page test of /realname with a stubbed API: a mainland ID of someone under 16 makes the guardian consent checkbox
// appear and required; ticked, the submission carries guardianConsent=true; a rejected verification shows the reason
// and offers to submit again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import { idCheckChar } from '../lib/identity';
import RealnamePage from './RealnamePage';

const NONE = {
  basic: { state: 'NONE', country: '', realName: '', idType: '', idNumber: '', rejectReason: '', submittedAt: 0, decidedAt: 0 },
  advanced: { state: 'NONE', rejectReason: '', submittedAt: 0, decidedAt: 0 },
};

/** A valid mainland ID number of someone born `years` years ago today (minus a day, so not yet that birthday). */
function idAged(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + 1);
  const p = (n: number) => String(n).padStart(2, '0');
  const first17 = `110101${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}123`;
  return first17 + idCheckChar(first17);
}

afterEach(() => vi.unstubAllGlobals());

describe('RealnamePage', () => {
  it('asks for guardian consent under 16 and sends it', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'member/kyc/getKyc': NONE, 'member/kyc/submitBasic': null });
    renderPage(<RealnamePage />, { path: '/realname' });
    fireEvent.change(await screen.findByLabelText('Real name'), { target: { value: '张小明' } });
    fireEvent.change(screen.getByLabelText('ID number'), { target: { value: idAged(15) } });
    const consent = await screen.findByText('My parent or guardian agrees to this verification');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Guardian consent is required under 16')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'member/kyc/submitBasic')).toBe(false);
    fireEvent.click(consent);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path === 'member/kyc/submitBasic')?.form).toMatchObject({
        country: 'CN',
        realName: '张小明',
        idType: 'ID_CARD',
        guardianConsent: 'true',
      }),
    );
  });

  it('refuses a wrong check character before submitting', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'member/kyc/getKyc': NONE });
    renderPage(<RealnamePage />, { path: '/realname' });
    fireEvent.change(await screen.findByLabelText('Real name'), { target: { value: 'Li Lei' } });
    const good = idAged(30);
    fireEvent.change(screen.getByLabelText('ID number'), { target: { value: good.slice(0, 17) + (good[17] === '1' ? '2' : '1') } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please enter a valid ID number')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'member/kyc/submitBasic')).toBe(false);
  });

  it('shows the rejection reason and lets the user submit again', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'member/kyc/getKyc': { ...NONE, basic: { ...NONE.basic, state: 'REJECTED', rejectReason: 'The photo is blurred' } } });
    renderPage(<RealnamePage />, { path: '/realname' });
    expect(await screen.findByText('Reason: The photo is blurred')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Submit again' }));
    expect(await screen.findByLabelText('Real name')).toBeInTheDocument();
  });
});
