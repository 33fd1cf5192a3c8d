/**
 * The sentences of FAILED envelopes beyond a code's plain message (errors.ts): request fields named in the
 * user's words (FIELD_LABELS, never the wire name), the few codes whose message names the field it is about
 * (FIELD_SENTENCES; every other code's message already says what is wrong, and the field is left out), and
 * the codes that can say the value the user has to meet (PARAM_SENTENCES: "Minimum order value is 5 USDT").
 * errorText() puts them together; the server's fail() and the tests use it.
 */
import { errorMessage } from './errors';

/** A text in both languages. */
export interface Bilingual {
  en: string;
  zh: string;
}

/**
 * Human names of the request fields, as they read inside a sentence (en in lower case). A field not listed
 * here is never shown to the user: the message then goes without it.
 */
export const FIELD_LABELS: Readonly<Record<string, Bilingual>> = {
  // accounts
  account: { en: 'account', zh: '账号' },
  mail: { en: 'e-mail address', zh: '邮箱' },
  phone: { en: 'phone number', zh: '手机号' },
  areaCode: { en: 'country code', zh: '国家/地区代码' },
  registerType: { en: 'sign-up method', zh: '注册方式' },
  code: { en: 'verification code', zh: '验证码' },
  password: { en: 'password', zh: '密码' },
  confirmPassword: { en: 'password confirmation', zh: '确认密码' },
  invitationCode: { en: 'invitation code', zh: '邀请码' },
  agreement: { en: 'user agreement', zh: '用户协议' },
  nickName: { en: 'nickname', zh: '昵称' },
  member: { en: 'user ID', zh: '用户ID' },
  memberId: { en: 'user ID', zh: '用户ID' },
  // account security (domains/security)
  bindType: { en: 'binding type', zh: '绑定方式' },
  verifyCode: { en: 'verification code', zh: '验证码' },
  googleCode: { en: 'Google Authenticator code', zh: '谷歌验证码' },
  oldPassword: { en: 'current password', zh: '原密码' },
  transPassword: { en: 'transaction password', zh: '交易密码' },
  confirmTransPassword: { en: 'transaction password confirmation', zh: '确认交易密码' },
  oldTransPassword: { en: 'current transaction password', zh: '原交易密码' },
  channel: { en: 'delivery channel', zh: '接收方式' },
  pageNo: { en: 'page number', zh: '页码' },
  // slider puzzle
  randomCode: { en: 'verification request', zh: '验证请求' },
  clientType: { en: 'client type', zh: '客户端类型' },
  challenge: { en: 'slider verification', zh: '滑块验证' },
  x: { en: 'slider position', zh: '滑块位置' },
  y: { en: 'slider position', zh: '滑块位置' },
  trail: { en: 'slider movement', zh: '滑动轨迹' },
  geetest_challenge: { en: 'slider verification', zh: '滑块验证' },
  geetest_validate: { en: 'slider verification', zh: '滑块验证' },
  geetest_seccode: { en: 'slider verification', zh: '滑块验证' },
  // market data
  pairsName: { en: 'trading pair', zh: '交易对' },
  mainCur: { en: 'quote currency', zh: '计价币种' },
  type: { en: 'type', zh: '类型' },
  getCoinType: { en: 'ranking', zh: '排行榜' },
  bannerType: { en: 'banner type', zh: '横幅类型' },
  noticeType: { en: 'notice type', zh: '公告类型' },
  global: { en: 'language', zh: '语言' },
  period: { en: 'chart interval', zh: 'K线周期' },
  limit: { en: 'number of items', zh: '条数' },
  endTime: { en: 'end time', zh: '结束时间' },
  file: { en: 'file name', zh: '文件名' },
  // orders
  side: { en: 'order side', zh: '买卖方向' },
  orderType: { en: 'order type', zh: '委托类型' },
  timeInForce: { en: 'time in force', zh: '有效方式' },
  price: { en: 'price', zh: '价格' },
  amount: { en: 'amount', zh: '数量' },
  total: { en: 'total', zh: '交易额' },
  clientOrderId: { en: 'client order ID', zh: '客户端委托编号' },
  stopType: { en: 'trigger type', zh: '触发类型' },
  stopPrice: { en: 'trigger price', zh: '触发价' },
  trailingDelta: { en: 'trailing delta', zh: '回调幅度' },
  stopLimitPrice: { en: 'stop-limit price', zh: '止损限价' },
  orderListId: { en: 'OCO order number', zh: 'OCO委托单号' },
  id: { en: 'ID', zh: '编号' },
  page: { en: 'page', zh: '页码' },
  pageSize: { en: 'page size', zh: '每页条数' },
  coin: { en: 'coin', zh: '币种' },
  // contracts (packages/api contract.ts)
  symbol: { en: 'contract', zh: '合约' },
  lots: { en: 'lots', zh: '手数' },
  quantity: { en: 'quantity', zh: '数量' },
  leverage: { en: 'leverage', zh: '杠杆倍数' },
  marginMode: { en: 'margin mode', zh: '保证金模式' },
  takeProfit: { en: 'take profit price', zh: '止盈价' },
  stopLoss: { en: 'stop loss price', zh: '止损价' },
  reduceOnly: { en: 'reduce-only', zh: '只减仓' },
  orderId: { en: 'order number', zh: '委托单号' },
  tab: { en: 'list', zh: '列表' },
  workingType: { en: 'trigger price type', zh: '触发价类型' },
  callbackRate: { en: 'callback rate', zh: '回调幅度' },
  activationPrice: { en: 'activation price', zh: '激活价格' },
  closePosition: { en: 'close position', zh: '全部平仓' },
  priceProtect: { en: 'price protection', zh: '价格保护' },
  // identity verification, uploads and payment methods
  purpose: { en: 'image kind', zh: '图片用途' },
  imageId: { en: 'image', zh: '图片' },
  country: { en: 'country or region', zh: '国家或地区' },
  realName: { en: 'name', zh: '姓名' },
  idType: { en: 'document type', zh: '证件类型' },
  idNumber: { en: 'ID number', zh: '证件号码' },
  guardianConsent: { en: 'guardian consent', zh: '监护人同意' },
  frontImageId: { en: 'ID front photo', zh: '证件正面照' },
  backImageId: { en: 'ID back photo', zh: '证件背面照' },
  handheldImageId: { en: 'handheld ID photo', zh: '手持证件照' },
  payType: { en: 'payment type', zh: '收款方式' },
  bankName: { en: 'bank', zh: '开户银行' },
  branch: { en: 'branch', zh: '开户支行' },
  cardNo: { en: 'card number', zh: '银行卡号' },
  qrImageId: { en: 'QR code', zh: '收款二维码' },
  enabled: { en: 'enabled', zh: '启用状态' },
};

/**
 * Codes whose plain message does not say which input is wrong: with a known field the message names it in
 * this sentence ({field} = its FIELD_LABELS text).
 */
export const FIELD_SENTENCES: Readonly<Record<string, Bilingual>> = {
  validation_failed: { en: 'Invalid request parameters: {field}', zh: '请求参数无效：{field}' },
  invalid_characters: { en: 'The {field} contains characters that are not allowed', zh: '{field}包含不允许的字符' },
  too_many_decimals: { en: 'Too many decimal places in the {field}', zh: '{field}的小数位数过多' },
  value_too_large: { en: 'The {field} is too large', zh: '{field}数值过大' },
  invalid_order: { en: 'Invalid order parameters: {field}', zh: '委托参数无效：{field}' },
};

/**
 * Codes that can name the value to meet, with the parameters each sentence takes; used when every parameter
 * is given (else the plain message). Values are shown as given: the server passes them formatted.
 */
export const PARAM_SENTENCES: Readonly<Record<string, Bilingual>> = {
  notional_below_minimum: { en: 'Minimum order value is {min} {coin}', zh: '最小下单金额为 {min} {coin}' },
  margin_remove_exceeded: { en: 'At most {max} {coin} of margin can be removed', zh: '最多可减少 {max} {coin} 保证金' },
  transfer_exceeds_withdrawable: {
    en: 'At most {max} {coin} can be transferred while positions are open: margin and unrealized losses stay in the contract account',
    zh: '持仓期间最多可划转 {max} {coin}：保证金和未实现亏损需留在合约账户',
  },
  leverage_margin_insufficient: {
    en: 'Lowering the leverage to {leverage}x holds {need} {coin} more margin, but only {max} {coin} is available',
    zh: '将杠杆降至 {leverage}x 需追加 {need} {coin} 保证金，可用仅 {max} {coin}',
  },
  quantity_below_minimum: { en: 'Minimum amount is {min} {coin}', zh: '最小下单数量为 {min} {coin}' },
  quantity_not_on_step: { en: 'Amount must be a multiple of {step} {coin}', zh: '数量须为 {step} {coin} 的整数倍' },
  price_not_on_tick: { en: 'Price must be a multiple of {step} {coin}', zh: '价格须为 {step} {coin} 的整数倍' },
  stop_price_not_on_tick: { en: 'Trigger price must be a multiple of {step} {coin}', zh: '触发价须为 {step} {coin} 的整数倍' },
  // spot OCO: the last price the two legs must lie on either side of
  oco_sell_prices: {
    en: 'For a sell OCO, the limit price must be above the last price ({last} {coin}) and the trigger price below it',
    zh: '卖出OCO的限价须高于最新价（{last} {coin}），触发价须低于最新价',
  },
  oco_buy_prices: {
    en: 'For a buy OCO, the limit price must be below the last price ({last} {coin}) and the trigger price above it',
    zh: '买入OCO的限价须低于最新价（{last} {coin}），触发价须高于最新价',
  },
  // The amount, price or total has more decimals than its step allows: the step says what is allowed.
  too_many_decimals: { en: 'The {field} must be a multiple of {step} {coin}', zh: '{field}须为 {step} {coin} 的整数倍' },
  // account security: how long the lock still lasts, in whole minutes (rounded up)
  trans_password_locked: {
    en: 'Transaction password locked after 5 wrong attempts, try again in {minutes} minutes',
    zh: '交易密码错误5次已锁定，请{minutes}分钟后再试',
  },
  google_code_locked: { en: 'Too many wrong Google Authenticator codes, try again in {minutes} minutes', zh: '谷歌验证码错误次数过多，请{minutes}分钟后再试' },
  // wallet: the coin's limits, and the end of a withdrawal lock (UTC, "2026-11-24 21:57")
  amount_below_minimum: { en: 'Minimum amount is {min} {coin}', zh: '最小数量为 {min} {coin}' },
  amount_above_maximum: { en: 'Maximum amount is {max} {coin}', zh: '最大数量为 {max} {coin}' },
  // convert: the smallest amount of the coin paid that the market's order filters accept now
  convert_below_minimum: { en: 'The minimum to convert is {min} {coin}', zh: '最小兑换数量为 {min} {coin}' },
  withdrawal_locked: { en: 'Withdrawals are locked until {until} (UTC) after a security change', zh: '安全设置变更后禁止提币，解锁时间 {until}（UTC）' },
};

/** Values of a message's parameters ({min}, {step}, {coin}). */
export type MessageParams = Readonly<Record<string, string>>;

/** `template` with every {name} replaced from `values`; null when one is missing. */
function fill(template: string, values: Readonly<Record<string, string | undefined>>): string | null {
  let missing = false;
  const out = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = values[name];
    if (v === undefined || v === '') missing = true;
    return v ?? '';
  });
  return missing ? null : out;
}

/** The human name of request field `field` in `lang`, or undefined when it has none (a nested path uses its first part). */
export function fieldLabel(field: string | undefined, lang: 'zh' | 'en'): string | undefined {
  if (!field) return undefined;
  const own = Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field] : undefined;
  const head = field.split('.')[0] ?? '';
  const entry = own ?? (Object.hasOwn(FIELD_LABELS, head) ? FIELD_LABELS[head] : undefined);
  return entry?.[lang];
}

/**
 * The message of `code` in `lang` as one sentence: with its parameters when the code has a PARAM_SENTENCES
 * text and all of them are given; else naming `field` in words when the code has a FIELD_SENTENCES text and
 * the field a label; else the code's plain message (errors.ts). Wire names of fields never appear.
 */
export function errorText(code: string, lang: 'zh' | 'en', field?: string, params?: MessageParams): string {
  const label = fieldLabel(field, lang);
  const withParams = params && Object.hasOwn(PARAM_SENTENCES, code) ? fill(PARAM_SENTENCES[code]![lang], { ...params, field: label }) : null;
  if (withParams) return withParams;
  const withField = label && Object.hasOwn(FIELD_SENTENCES, code) ? fill(FIELD_SENTENCES[code]![lang], { field: label }) : null;
  return withField ?? errorMessage(code, lang);
}
