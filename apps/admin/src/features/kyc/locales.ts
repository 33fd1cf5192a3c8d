/**
 * The KYC queue's texts, in English (the source of the key set) and Chinese. src/locales/features.ts merges them into
 * the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  nav: { kyc: 'KYC queue' },
  kyc: {
    state: 'State',
    level: 'Level',
    all: 'All',
    PENDING: 'Pending',
    PASS: 'Approved',
    REJECTED: 'Rejected',
    BASIC: 'Basic',
    ADVANCED: 'Advanced',
    id: 'Application',
    user: 'User id',
    realName: 'Real name',
    submitted: 'Submitted',
    review: 'Review',
    view: 'View',
    drawerTitle: 'Application {{id}}',
    images: 'Images',
    noImages: 'No images',
    approve: 'Approve',
    reject: 'Reject',
    reasonZh: 'Reason (Chinese)',
    reasonEn: 'Reason (English)',
    reasonHelp: 'The user sees the reason in their language',
    approved: 'Application approved',
    rejected: 'Application rejected',
    decided: 'Decided',
    unavailable: 'Identity verification is not available on this server yet',
    fields: { country: 'Country', realName: 'Real name', idType: 'Document type', idNumber: 'Document number', guardianConsent: 'Guardian consent' },
    idTypes: { ID_CARD: 'ID card', PASSPORT: 'Passport', DRIVING_LICENSE: 'Driving licence' },
  },
};

const zh: typeof en = {
  nav: { kyc: '实名审核' },
  kyc: {
    state: '状态',
    level: '级别',
    all: '全部',
    PENDING: '待审核',
    PASS: '已通过',
    REJECTED: '已驳回',
    BASIC: '初级认证',
    ADVANCED: '高级认证',
    id: '申请编号',
    user: '用户ID',
    realName: '真实姓名',
    submitted: '提交时间',
    review: '审核',
    view: '查看',
    drawerTitle: '申请 {{id}}',
    images: '证件照片',
    noImages: '无照片',
    approve: '通过',
    reject: '驳回',
    reasonZh: '驳回原因（中文）',
    reasonEn: '驳回原因（英文）',
    reasonHelp: '用户将看到其所用语言的原因',
    approved: '已通过该申请',
    rejected: '已驳回该申请',
    decided: '已处理',
    unavailable: '本服务器尚未提供身份认证功能',
    fields: { country: '国家/地区', realName: '真实姓名', idType: '证件类型', idNumber: '证件号码', guardianConsent: '监护人同意' },
    idTypes: { ID_CARD: '身份证', PASSPORT: '护照', DRIVING_LICENSE: '驾驶证' },
  },
};

export default { en, zh } satisfies FeatureTexts;
