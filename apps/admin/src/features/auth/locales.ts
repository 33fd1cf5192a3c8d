/**
 * The login page's texts, in English (the source of the key set) and Chinese. src/locales/features.ts merges them into
 * the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  login: {
    title: 'Operator login',
    email: 'E-mail',
    password: 'Password',
    totp: 'Authenticator code',
    totpHelp: '6 digits from your authenticator app',
    submit: 'Log in',
  },
};

const zh: typeof en = {
  login: {
    title: '操作员登录',
    email: '邮箱',
    password: '密码',
    totp: '验证器验证码',
    totpHelp: '身份验证器应用中的6位数字',
    submit: '登录',
  },
};

export default { en, zh } satisfies FeatureTexts;
