/**
 * The savings products page's texts, in English (the source of the key set) and Chinese. src/locales/features.ts merges
 * them into the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  nav: { earn: 'Savings products' },
  earn: {
    hint: 'Fixed-term savings of the app (/mortgage): users lock a coin from their funding account for the term; interest = amount x rate x days / 365 (rounded down) is paid daily; the principal returns at maturity. A change applies to new locks only.',
    products: 'Products',
    create: 'New product',
    edit: 'Edit',
    editTitle: 'Edit product {{id}}',
    save: 'Save',
    saved: 'Product {{id}} saved',
    id: 'ID',
    coin: 'Coin',
    term: 'Term',
    termDays: 'Term (days)',
    days: '{{n}} days',
    apr: 'Annual rate',
    aprPercent: 'Annual rate (%)',
    aprHelp: '0 to 100, up to 4 decimals',
    limits: 'Per lock',
    minAmount: 'Minimum per lock',
    maxAmount: 'Maximum per lock',
    userQuota: 'Per-user quota',
    totalQuota: 'Total quota',
    lockedTotal: 'Locked / total quota',
    early: 'Early redemption',
    earlyRule: { FORFEIT_INTEREST: 'Allowed, interest paid deducted', NOT_ALLOWED: 'Not allowed' },
    status: 'Status',
    statuses: { ON: 'Open', OFF: 'Closed to new locks' },
  },
};

const zh: typeof en = {
  nav: { earn: '理财产品' },
  earn: {
    hint: 'App 的定期理财（/mortgage）：用户从资金账户锁定币种一定期限；利息 = 数量 × 年化利率 × 天数 / 365（向下取整），每日发放；到期返还本金。修改仅对新的锁仓生效。',
    products: '产品',
    create: '新建产品',
    edit: '编辑',
    editTitle: '编辑产品 {{id}}',
    save: '保存',
    saved: '产品 {{id}} 已保存',
    id: 'ID',
    coin: '币种',
    term: '期限',
    termDays: '期限（天）',
    days: '{{n}}天',
    apr: '年化利率',
    aprPercent: '年化利率（%）',
    aprHelp: '0 至 100，最多4位小数',
    limits: '单笔限额',
    minAmount: '单笔最小',
    maxAmount: '单笔最大',
    userQuota: '个人额度',
    totalQuota: '总额度',
    lockedTotal: '已锁定 / 总额度',
    early: '提前赎回',
    earlyRule: { FORFEIT_INTEREST: '支持，扣除已发利息', NOT_ALLOWED: '不支持' },
    status: '状态',
    statuses: { ON: '开放', OFF: '暂停申购' },
  },
};

export default { en, zh } satisfies FeatureTexts;
