// Proves the form state shared by the login, register and reset screens (useAccountForm), in
// English: the account, code, password and confirmation rules give translated messages in the
// spec's order, validateAccount sets only the account error, switching email/phone clears the
// account and every error, the area code is sent only for phones, and a phone number is checked
// against the chosen country code with a message naming it.
import { beforeEach, describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { ReactNode } from 'react';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { useAccountForm } from './use-account-form';

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
const setup = (init?: Parameters<typeof useAccountForm>[0]) => renderHook(() => useAccountForm<'code' | 'password' | 'confirm'>(init), { wrapper });

beforeEach(async () => {
  await i18n.changeLanguage('en');
  useAppStore.setState({ areaCode: '44' });
});

describe('useAccountForm', () => {
  it('checks account, code, new password and confirmation with translated messages', () => {
    const { result } = setup();
    expect(result.current.checkCodeAndNewPassword('', '', '')).toEqual({
      account: 'Please enter your email',
      code: 'Please enter the verification code',
      password: 'Please enter your password',
      confirm: 'Please confirm your password',
    });
    act(() => result.current.setAccount('a@b.co'));
    expect(result.current.checkCodeAndNewPassword('123456', 'abcd1234', 'abcd1235')).toEqual({
      account: null,
      code: null,
      password: null,
      confirm: 'The two passwords do not match',
    });
  });

  it('validateAccount sets only the account error; switching the kind clears account and errors', () => {
    const { result } = setup({ kind: 'EMAIL', account: 'nope' });
    let ok = true;
    act(() => {
      ok = result.current.validateAccount();
    });
    expect(ok).toBe(false);
    expect(result.current.errors).toEqual({ account: 'Please enter a valid email address' });
    expect(result.current.phoneAreaCode).toBeUndefined();
    act(() => result.current.switchKind('PHONE'));
    expect(result.current.kind).toBe('PHONE');
    expect(result.current.account).toBe('');
    expect(result.current.errors).toEqual({});
    expect(result.current.phoneAreaCode).toBe('44');
  });

  it('refuses a phone number that is not valid for the chosen country code, naming the code', () => {
    const { result } = setup({ kind: 'PHONE', account: '12345' });
    let ok = true;
    act(() => {
      ok = result.current.validateAccount();
    });
    expect(ok).toBe(false);
    expect(result.current.errors).toEqual({ account: 'Please enter a valid mobile number for +44' });
    act(() => result.current.setAccount('7911123456'));
    act(() => {
      ok = result.current.validateAccount();
    });
    expect(ok).toBe(true);
    act(() => result.current.setAreaCode('86'));
    act(() => {
      ok = result.current.validateAccount();
    });
    expect(ok).toBe(false);
  });
});
