/**
 * State shared by the login, register and password-reset forms: email/phone kind, the account, the
 * stored area code, the per-field error messages (already translated), and the busy flag. Switching
 * the kind clears the account and all errors (spec section 5 forms). A phone is checked against the
 * chosen country code.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../shared/storage';
import { checkAccount, checkCode, checkConfirm, checkPassword } from '../../../shared/forms/validation';

/** Email or phone account. */
export type AccountKind = 'EMAIL' | 'PHONE';

/** Translated error message per field; null or absent when the field is fine. */
export type FieldErrors<F extends string> = Partial<Record<F | 'account', string | null>>;

/**
 * Form state of an account screen. `F` names the page's other fields (e.g. 'code' | 'password').
 * Returns the state, `switchKind(k)`, `tr(key)` (i18n key or null -> message or null),
 * `validateAccount()` (sets the account error, true when fine; used before sending a code), and
 * `checkCodeAndNewPassword(code, password, confirm)` (errors of account, code, password, confirm).
 */
export function useAccountForm<F extends string>(init: { kind?: AccountKind; account?: string } = {}) {
  const { t } = useTranslation('account');
  const areaCode = useAppStore((s) => s.areaCode);
  const setAreaCode = useAppStore((s) => s.setAreaCode);
  const [kind, setKind] = useState<AccountKind>(init.kind ?? 'EMAIL');
  const [account, setAccount] = useState(init.account ?? '');
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const [busy, setBusy] = useState(false);
  // Messages may name the country code (v.phoneInvalid: "... for +86").
  const tr = (k: string | null) => (k ? t(k, { code: areaCode }) : null);

  const switchKind = (k: AccountKind) => {
    setKind(k);
    setAccount('');
    setErrors({});
  };

  const validateAccount = () => {
    const e = checkAccount(kind, account, areaCode);
    setErrors((x) => ({ ...x, account: tr(e) }));
    return !e;
  };

  const checkCodeAndNewPassword = (code: string, password: string, confirm: string) => ({
    account: tr(checkAccount(kind, account, areaCode)),
    code: tr(checkCode(code)),
    password: tr(checkPassword(password)),
    confirm: tr(checkConfirm(password, confirm)),
  });

  return {
    kind,
    switchKind,
    account,
    setAccount,
    areaCode,
    setAreaCode,
    errors,
    setErrors,
    busy,
    setBusy,
    tr,
    /** The area code when the account is a phone, else undefined (what the API expects). */
    phoneAreaCode: kind === 'PHONE' ? areaCode : undefined,
    validateAccount,
    checkCodeAndNewPassword,
  };
}

/** What `useAccountForm` returns. */
export type AccountForm<F extends string> = ReturnType<typeof useAccountForm<F>>;
