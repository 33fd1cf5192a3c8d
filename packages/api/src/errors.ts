/**
 * Error codes of the API and their messages in both languages. `SYS.0015` (session expired) is the
 * spec's (section 8); the engine's rejection codes (packages/core REJECT_CODES) are reused as-is.
 * A test checks that every code has a zh and an en message.
 */
export const ERROR_MESSAGES = {
  'SYS.0015': { en: 'Login expired, please log in again', zh: '登录已过期，请重新登录' },
  unauthorized: { en: 'Authorization expired, please log in again', zh: '授权已过期，请重新登录' },
  validation_failed: { en: 'Invalid request parameters', zh: '请求参数无效' },
  invalid_characters: { en: 'The input contains characters that are not allowed', zh: '输入包含不允许的字符' },
  not_found: { en: 'Resource not found', zh: '资源不存在' },
  method_not_allowed: { en: 'Method not allowed', zh: '不允许的请求方法' },
  rate_limited: { en: 'Too many requests, please try again later', zh: '请求过于频繁，请稍后再试' },
  payload_too_large: { en: 'Request too large', zh: '请求内容过大' },
  internal_error: { en: 'Server error, please try again later', zh: '服务器错误，请稍后再试' },
  service_unavailable: { en: 'Service unavailable', zh: '服务不可用' },
  forbidden: { en: 'Access denied', zh: '拒绝访问' },
  // captcha and codes
  captcha_invalid: { en: 'Slider verification failed, please try again', zh: '滑块验证失败，请重试' },
  captcha_expired: { en: 'Verification expired, please slide again', zh: '验证已过期，请重新滑动' },
  captcha_required: { en: 'Please complete the slider verification', zh: '请先完成滑块验证' },
  captcha_too_frequent: { en: 'Too many puzzles requested, please wait a minute', zh: '验证请求过于频繁，请一分钟后再试' },
  code_invalid: { en: 'Verification code is wrong or expired', zh: '验证码错误或已过期' },
  code_too_frequent: { en: 'Codes are sent too often, please wait', zh: '验证码发送过于频繁，请稍后再试' },
  email_invalid: { en: 'Please enter a valid email address', zh: '请输入正确的邮箱地址' },
  phone_invalid: { en: 'Please enter a valid phone number', zh: '请输入正确的手机号' },
  // member
  account_exists: { en: 'This account is already registered', zh: '该账号已注册' },
  account_not_found: { en: 'Account not found', zh: '账号不存在' },
  login_failed: { en: 'Wrong account or password', zh: '账号或密码错误' },
  login_locked: { en: 'Too many failed logins, please try again later', zh: '登录失败次数过多，请稍后再试' },
  password_invalid: { en: 'Password must be 8-20 characters and not only digits', zh: '密码须为8-20位且不能为纯数字' },
  password_mismatch: { en: 'The two passwords do not match', zh: '两次输入的密码不一致' },
  agreement_required: { en: 'Please read and accept the user agreement', zh: '请阅读并同意用户协议' },
  invitation_invalid: { en: 'Invitation code does not exist', zh: '邀请码不存在' },
  nickname_required: { en: 'Please enter a nickname', zh: '请输入昵称' },
  nickname_already_set: { en: 'The nickname can be set only once', zh: '昵称只能设置一次' },
  nickname_required_to_trade: { en: 'No nickname set, set one?', zh: '未设置昵称，是否去设置？' },
  // trading (engine rejections)
  asset_exists: { en: 'Asset already exists', zh: '币种已存在' },
  market_exists: { en: 'Market already exists', zh: '交易对已存在' },
  invalid_config: { en: 'Invalid configuration', zh: '配置无效' },
  asset_not_found: { en: 'Coin not found', zh: '币种不存在' },
  market_not_found: { en: 'Trading pair not found', zh: '交易对不存在' },
  market_halted: { en: 'Trading is suspended for this pair', zh: '该交易对已暂停交易' },
  account_frozen: { en: 'Your account is frozen: trading and transfers are suspended, please contact support', zh: '账户已冻结，暂停交易和划转，请联系客服' },
  invalid_order: { en: 'Invalid order parameters', zh: '委托参数无效' },
  price_required: { en: 'Please enter a price', zh: '请输入价格' },
  price_not_on_tick: { en: 'Price is not a multiple of the tick size', zh: '价格不符合最小变动单位' },
  quantity_required: { en: 'Please enter an amount', zh: '请输入数量' },
  quantity_not_on_step: { en: 'Amount is not a multiple of the step size', zh: '数量不符合最小数量单位' },
  quantity_below_minimum: { en: 'Amount is below the minimum', zh: '数量低于最小下单量' },
  notional_below_minimum: { en: 'Order value is below the minimum', zh: '委托金额低于最小值' },
  amount_invalid: { en: 'Invalid amount', zh: '金额无效' },
  same_account: { en: 'From and to accounts must differ', zh: '转出和转入账户不能相同' },
  too_many_open_orders: { en: 'Too many open orders: at most 200 per trading pair', zh: '每个交易对最多200个未成交委托' },
  insufficient_balance: { en: 'Insufficient balance', zh: '余额不足' },
  would_take_liquidity: { en: 'Post-only order would trade immediately', zh: '只做Maker委托会立即成交，已拒绝' },
  no_liquidity: { en: 'No orders to match, please try later', zh: '暂无可成交的挂单，请稍后再试' },
  order_not_found: { en: 'Order not found or already closed', zh: '委托不存在或已结束' },
  order_rate_limited: { en: 'Too many orders: at most 50 every 10 seconds, please slow down', zh: '下单过于频繁：每10秒最多50笔，请稍后再试' },
  user_key_taken: { en: 'Please try again', zh: '请重试' },
  user_not_found: { en: 'User not found', zh: '用户不存在' },
  user_field_mismatch: { en: 'The account was changed meanwhile, please try again', zh: '账户信息已变更，请重试' },
  outcome_unknown: {
    en: 'The service stopped before confirming your request; its outcome is unknown. Check your orders and balances before retrying',
    zh: '服务在确认您的请求前中断，结果未知。请先查看您的委托和资产再重试',
  },
  too_many_decimals: { en: 'Too many decimal places', zh: '小数位数过多' },
  value_too_large: { en: 'Value is too large', zh: '数值过大' },
  // operator console (issue 10, modules/admin)
  admin_unauthorized: { en: 'Console session expired, please log in again', zh: '控制台会话已过期，请重新登录' },
  admin_login_failed: { en: 'Wrong e-mail, password or authenticator code', zh: '邮箱、密码或验证器验证码错误' },
  admin_login_locked: { en: 'Too many failed logins, please try again in 15 minutes', zh: '登录失败次数过多，请15分钟后再试' },
  admin_forbidden: { en: 'Your role does not allow this action', zh: '您的角色无权执行此操作' },
  operator_exists: { en: 'An operator with this e-mail exists already', zh: '该邮箱的操作员已存在' },
  operator_not_found: { en: 'Operator not found', zh: '操作员不存在' },
  operator_self: { en: 'You cannot disable yourself', zh: '不能停用自己的账号' },
  admin_already_frozen: { en: 'The account is frozen already', zh: '该账户已被冻结' },
  admin_not_frozen: { en: 'The account is not frozen', zh: '该账户未被冻结' },
  admin_kyc_unavailable: { en: 'Identity verification is not available yet', zh: '身份认证功能暂不可用' },
  admin_kyc_not_found: { en: 'Application not found', zh: '申请不存在' },
  admin_kyc_not_pending: { en: 'This application was decided already', zh: '该申请已处理' },
} as const satisfies Record<string, { en: string; zh: string }>;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Message for `code` in `lang`; unknown codes fall back to the generic validation message. */
export function errorMessage(code: string, lang: 'zh' | 'en'): string {
  const entry = (ERROR_MESSAGES as Record<string, { en: string; zh: string }>)[code];
  return entry ? entry[lang] : ERROR_MESSAGES.validation_failed[lang];
}
