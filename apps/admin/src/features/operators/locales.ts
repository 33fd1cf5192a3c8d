/**
 * The operators page's texts, in English (the source of the key set) and Chinese. src/locales/features.ts merges them
 * into the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  nav: { operators: 'Operators' },
  operators: {
    create: 'New operator',
    email: 'E-mail',
    name: 'Name',
    role: 'Role',
    status: 'Status',
    enabled: 'Enabled',
    disabled: 'Disabled',
    createdAt: 'Created',
    disable: 'Disable',
    enable: 'Enable',
    resetTotp: 'Reset TOTP',
    resetTotpConfirm: 'Give this operator a new authenticator key? Their sessions end.',
    credentials: 'Credentials (shown once)',
    credentialsHelp: 'Hand these over safely: they are not shown again.',
    password: 'Password',
    totpKey: 'TOTP key',
    otpauth: 'otpauth URL',
    done: 'Done',
    you: 'you',
  },
};

const zh: typeof en = {
  nav: { operators: '操作员' },
  operators: {
    create: '新建操作员',
    email: '邮箱',
    name: '姓名',
    role: '角色',
    status: '状态',
    enabled: '启用',
    disabled: '已停用',
    createdAt: '创建时间',
    disable: '停用',
    enable: '启用',
    resetTotp: '重置验证器',
    resetTotpConfirm: '为该操作员生成新的验证器密钥？其所有会话将结束。',
    credentials: '登录凭据（仅显示一次）',
    credentialsHelp: '请安全地转交：之后不会再次显示。',
    password: '密码',
    totpKey: 'TOTP密钥',
    otpauth: 'otpauth链接',
    done: '完成',
    you: '本人',
  },
};

export default { en, zh } satisfies FeatureTexts;
