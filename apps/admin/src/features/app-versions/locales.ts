/**
 * The app versions page's texts, in English (the source of the key set) and Chinese. src/locales/features.ts merges
 * them into the console's texts.
 */
import type { FeatureTexts } from '../../locales/features';

const en = {
  nav: { appVersions: 'App versions' },
  versions: {
    publish: 'Publish a version',
    publishAction: 'Publish',
    platform: 'Platform',
    platforms: { android: 'Android', ios: 'iOS', web: 'Web' },
    version: 'Version',
    versionHelp: 'major.minor.patch, e.g. 1.2.0',
    force: 'Forced update',
    bundle: 'Web bundle',
    bundleHelp: 'Package the web build this server serves; the app updates itself with it (no store release)',
    bundleSize: 'Web bundle {{kb}} KB',
    binary: 'Binary',
    reasons: 'Reasons',
    reasonsZh: 'Reasons (Chinese)',
    reasonsEn: 'Reasons (English)',
    reasonsHelp: 'One reason per line; users see them in their language in the new-version dialog',
    downloadUrl: 'Download page (store or APK)',
    urlHelp: 'An http(s) address',
    kind: 'Kind',
    publishedAt: 'Published',
    status: 'Status',
    live: 'Live',
    withdrawn: 'Withdrawn',
    withdraw: 'Withdraw',
    confirmWithdraw: 'Withdraw version {{version}}? Apps stop being offered it.',
    withdrawnDone: 'Version withdrawn',
    published: '{{platform}} {{version}} published',
  },
};

const zh: typeof en = {
  nav: { appVersions: '版本管理' },
  versions: {
    publish: '发布新版本',
    publishAction: '发布',
    platform: '平台',
    platforms: { android: '安卓', ios: 'iOS', web: '网页' },
    version: '版本号',
    versionHelp: '主版本.次版本.修订号，例如 1.2.0',
    force: '强制更新',
    bundle: '网页包',
    bundleHelp: '打包本服务器提供的网页版本，应用据此自行更新（无需应用商店发版）',
    bundleSize: '网页包 {{kb}} KB',
    binary: '安装包',
    reasons: '更新原因',
    reasonsZh: '更新原因（中文）',
    reasonsEn: '更新原因（英文）',
    reasonsHelp: '每行一条原因；用户在新版本弹窗中看到其语言的原因',
    downloadUrl: '下载页面（应用商店或APK）',
    urlHelp: '请输入 http(s) 地址',
    kind: '类型',
    publishedAt: '发布时间',
    status: '状态',
    live: '生效中',
    withdrawn: '已撤回',
    withdraw: '撤回',
    confirmWithdraw: '撤回版本 {{version}}？应用将不再提示该版本。',
    withdrawnDone: '版本已撤回',
    published: '{{platform}} {{version}} 已发布',
  },
};

export default { en, zh } satisfies FeatureTexts;
