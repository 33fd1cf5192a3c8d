/**
 * Chinese texts of the console (every key of en.ts): the shared ones here, each feature's from
 * features/<feature>/locales.ts (features.ts).
 */
import type { SharedTexts } from './en';
import { featureTexts, mergeTexts } from './features';

const shared: SharedTexts = {
  app: { title: '交易所运营后台', logout: '退出登录', language: '语言', dark: '深色', light: '浅色', theme: '主题' },
  roles: { support: '客服', compliance: '合规', finance: '财务', admin: '管理员' },
  errors: { network: '网络错误，请重试', required: '必填' },
  audit: {
    operator: '操作员',
    operatorId: '操作员ID',
    action: '操作',
    user: '用户ID',
    time: '时间',
    range: '时间范围',
    ip: 'IP',
    userAgent: '浏览器',
    before: '操作前',
    after: '操作后',
    filter: '筛选',
    reset: '重置',
    any: '全部',
  },
  common: { ok: '确定', cancel: '取消', yes: '是', no: '否', total: '共 {{count}} 条', refresh: '刷新' },
};

/** Every Chinese text: the shared ones and each feature's. */
export const zh = mergeTexts([{ file: 'locales/zh.ts', texts: shared }, ...featureTexts.map((f) => ({ file: f.file, texts: f.texts.zh }))]);
