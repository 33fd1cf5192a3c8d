/**
 * Building blocks of the login, register and password-reset screens: the page frame (header, form,
 * title, subtitle), the email/phone switch with its account input, the verification-code field bound
 * to the account (slide puzzle, then send, then countdown), and the new password + confirmation pair.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountField, CodeField, KindSwitch, PasswordField } from '../../../shared/forms/fields';
import { AuthHeader } from './AuthHeader';
import type { CodeType } from '../../../shared/forms/send-code';
import type { AccountForm } from '../hooks/use-account-form';
import './account.css';

/**
 * Page frame: AuthHeader (an X going home when `close`, else a back arrow), then a form titled
 * `title` / `sub` holding `children`; submitting (button or Enter) calls `onSubmit()`. `after` is
 * rendered after the form (e.g. a popup).
 */
export function AuthForm(props: {
  title: string;
  sub: string;
  close?: boolean;
  noValidate?: boolean;
  onSubmit: () => void;
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <div>
      <AuthHeader close={props.close} />
      <form
        className="ex-auth"
        noValidate={props.noValidate}
        onSubmit={(e) => {
          e.preventDefault();
          props.onSubmit();
        }}
      >
        <h1 className="ex-auth-title">{props.title}</h1>
        <p className="ex-auth-sub">{props.sub}</p>
        {props.children}
      </form>
      {props.after}
    </div>
  );
}

/** Email/phone switch and the account input (with the area-code picker for phones) of `form`. */
export function AccountInputs<F extends string>({ form }: { form: AccountForm<F> }) {
  return (
    <>
      <KindSwitch value={form.kind} onChange={form.switchKind} />
      <AccountField
        kind={form.kind}
        value={form.account}
        onChange={form.setAccount}
        areaCode={form.areaCode}
        onAreaCode={form.setAreaCode}
        error={form.errors.account}
      />
    </>
  );
}

/** Verification-code field sending a `type` code to the form's account (checked first). */
export function AccountCodeField<F extends string>(props: {
  form: AccountForm<F>;
  type: CodeType;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
}) {
  const { form } = props;
  return (
    <CodeField
      value={props.value}
      onChange={props.onChange}
      account={form.account.trim()}
      areaCode={form.phoneAreaCode}
      type={props.type}
      validate={form.validateAccount}
      error={props.error}
    />
  );
}

/** New password (labelled `label`) and its confirmation, both 'new-password' for password managers. */
export function NewPasswordFields(props: {
  label: string;
  password: string;
  onPassword: (v: string) => void;
  confirm: string;
  onConfirm: (v: string) => void;
  errors: { password?: string | null; confirm?: string | null };
}) {
  const { t } = useTranslation('account');
  return (
    <>
      <PasswordField
        label={props.label}
        value={props.password}
        onChange={props.onPassword}
        placeholder={t('passwordRule')}
        error={props.errors.password}
        autoComplete="new-password"
      />
      <PasswordField
        label={t('confirmPassword')}
        value={props.confirm}
        onChange={props.onConfirm}
        placeholder={t('confirmPlaceholder')}
        error={props.errors.confirm}
        autoComplete="new-password"
      />
    </>
  );
}
