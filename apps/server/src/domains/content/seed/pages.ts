/**
 * The demo's initial text pages: the user registration agreement, the privacy policy, the P2P trading
 * terms and the merchant agreement, as the app showed them from its locale files before they moved to the console
 * (apps/web locales legal.json and otc.json), and the download page. Body format: packages/api content.ts.
 */
import type { PageSlug } from '@exchange/api';

/** A seeded page: title and body per language; the download page also its version and links. */
export interface PageSeed {
  slug: PageSlug;
  titleZh: string;
  titleEn: string;
  bodyZh: string;
  bodyEn: string;
  version?: string;
  androidUrl?: string;
  iosUrl?: string;
}

/** The five pages. */
export const PAGES: readonly PageSeed[] = [
  {
    slug: 'agreement',
    titleZh: '用户协议',
    titleEn: 'User Agreement',
    bodyZh:
      '## 1. 接受条款\n\n当您注册账户或使用本平台服务，即表示您已阅读、理解并同意本《用户协议》及《隐私政策》。如您不同意，请停止使用本服务。\n\n## 2. 使用资格\n\n您须年满18周岁并具有完全民事行为能力方可开立账户。若您所适用的法律禁止数字资产交易，您不得使用本服务。\n\n## 3. 账户与安全\n\n您应保证所提供信息真实准确，并妥善保管密码、验证码及设备。凡使用您的凭证进行的操作均视为您本人的行为。如发现账户被盗用，请立即通知我们。\n\n## 4. 身份认证\n\n提币、法币交易、收款方式等部分功能需完成身份认证。我们可能要求您提供身份证件，无法完成认证时，我们有权拒绝或限制相应服务。\n\n## 5. 服务内容\n\n本平台提供币币交易、USDT永续合约、与商家进行的法币（OTC）交易、充币、提币、账户间划转及相关服务。功能可能新增、调整或下线，部分功能标注为暂未开放。\n\n## 6. 风险提示\n\n数字资产价格波动剧烈，可能完全失去价值。永续合约采用保证金与杠杆交易，亏损可能超出预期；当账户风险率达到100%时将触发强制平仓，保证金将全部损失。请仅使用您能承受损失的资金进行交易。\n\n## 7. 费用\n\n交易、提币等费用会在您确认操作前展示。账户间划转免收手续费。费率调整将提前公告。\n\n## 8. 禁止行为\n\n您不得利用本平台从事洗钱、欺诈、操纵市场、攻击系统或其他违法活动，亦不得未经授权代他人开立账户。\n\n## 9. 暂停与终止\n\n在法律要求、违反本协议或为保护用户及平台安全时，我们可限制、冻结或关闭账户。您在结清未成交委托与持仓后可随时申请注销账户。\n\n## 10. 责任限制\n\n在法律允许的范围内，对于因市场波动、您自身操作失误、不可抗力、网络故障或第三方服务导致的损失，我们不承担责任。\n\n## 11. 协议变更\n\n我们可能更新本协议。重大变更将在生效前通过App公告；您继续使用即表示接受更新后的条款。\n\n## 12. 联系我们\n\n如对本协议有任何疑问，请通过App内在线客服与我们联系。',
    bodyEn:
      '## 1. Acceptance of these terms\n\nBy registering an account or using the services of this platform, you confirm that you have read, understood and accepted this User Agreement and the Privacy Policy. If you do not agree, please stop using the services.\n\n## 2. Eligibility\n\nYou must be at least 18 years old and have full legal capacity to open an account. You may not use the services where digital-asset trading is prohibited by the laws that apply to you.\n\n## 3. Your account and its security\n\nYou are responsible for the accuracy of the information you provide and for keeping your password, verification codes and devices safe. Every action taken with your credentials is treated as your own. Tell us at once if you suspect unauthorised access.\n\n## 4. Identity verification\n\nSome functions, such as withdrawals, fiat trading and payment methods, require identity verification. We may ask for identity documents and may refuse or limit services when verification cannot be completed.\n\n## 5. Services\n\nThe platform offers spot trading, USDT perpetual contracts, peer-to-peer fiat trading with merchants, deposits, withdrawals, transfers between your accounts and related services. Features may be added, changed or withdrawn; some are marked as not yet available.\n\n## 6. Risks\n\nDigital assets are highly volatile and may lose all of their value. Perpetual contracts use margin and leverage: losses can exceed your expectations, and a position is forcibly liquidated when the account risk level reaches 100%, in which case its margin is lost. Only trade with funds you can afford to lose.\n\n## 7. Fees\n\nTrading, withdrawal and other fees are shown before you confirm an operation. Transfers between your own accounts are free of charge. Fee schedules may change with prior notice.\n\n## 8. Prohibited conduct\n\nYou may not use the platform for money laundering, fraud, market manipulation, attacks on our systems or any other unlawful purpose, nor open accounts on behalf of others without authorisation.\n\n## 9. Suspension and termination\n\nWe may restrict, freeze or close an account when required by law, when this agreement is breached, or to protect users and the platform. You may close your account at any time after settling open orders and positions.\n\n## 10. Limitation of liability\n\nWe are not liable for losses caused by market movements, your own mistakes, force majeure, network failures or third-party services, to the extent permitted by law.\n\n## 11. Changes to this agreement\n\nWe may update this agreement. Material changes are announced in the app before they take effect; continued use means you accept the updated terms.\n\n## 12. Contact\n\nQuestions about this agreement can be sent to our customer service through the app.',
  },
  {
    slug: 'privacy',
    titleZh: '隐私政策',
    titleEn: 'Privacy Policy',
    bodyZh:
      '## 1. 我们收集的信息\n\n您提供的账户信息（邮箱或手机号、国家区号、昵称、密码摘要），身份认证时提供的信息（姓名、证件号码、证件照片），交易及钱包记录，以及设备类型、IP地址、App版本等技术信息。\n\n## 2. 信息的使用\n\n用于提供并保障服务安全、核验身份、处理委托及充提币、防范欺诈与洗钱、履行法定义务、响应您的请求以及改进产品。\n\n## 3. 信息的共享\n\n我们不会出售您的个人信息。仅在必要时与负有保密义务的服务提供商、法币订单所需范围内的交易商家共享，或依法向有权机关提供。\n\n## 4. 存储与安全\n\n我们对数据采取适当的加密保护，并仅允许有需要的人员访问。密码仅以加盐摘要形式保存。数据在账户存续期间及法律要求的期限内保存。\n\n## 5. 设备本地数据\n\nApp会在您设备的本地存储中保存登录令牌、用户ID、最近使用的账号、所选交易对、语言、主题及涨跌颜色，以便重启后保留。退出登录将删除登录令牌。\n\n## 6. 您的权利\n\n您可以查阅、更正或删除个人信息，撤回授权并注销账户，但法律要求保留的除外。请通过在线客服提交申请。\n\n## 7. 未成年人\n\n本服务不面向未成年人。未满16周岁的未成年人须经父母或监护人同意方可提供个人信息；如发现未经同意收集了此类信息，我们将予以删除。\n\n## 8. 政策变更\n\n本政策如有变更，我们将在生效前通过App公告。\n\n## 9. 联系我们\n\n如有隐私相关问题，请通过App内在线客服与我们联系。',
    bodyEn:
      "## 1. Information we collect\n\nAccount data you give us (email or phone number, country code, nickname, password hash), identity-verification data when you verify (name, ID number, document photos), trading and wallet records, and technical data such as device type, IP address and app version.\n\n## 2. How we use it\n\nTo provide and secure the services, verify your identity, process orders, deposits and withdrawals, prevent fraud and money laundering, meet legal obligations, answer your requests and improve the app.\n\n## 3. Sharing\n\nWe do not sell personal data. We share it only with service providers working for us under confidentiality obligations, with merchants to the extent a fiat order needs it, and with authorities when the law requires.\n\n## 4. Storage and security\n\nData is stored encrypted where appropriate and access is limited to staff who need it. Passwords are stored only as salted hashes. We keep data for as long as the account exists and as long afterwards as the law requires.\n\n## 5. Data on your device\n\nThe app keeps your login token, user id, last used account, selected trading pairs, language, theme and colour scheme in your device's local storage so that they survive a restart. Logging out removes the token.\n\n## 6. Your rights\n\nYou may access, correct or delete your personal data, withdraw consent and close your account, subject to legal retention duties. Contact customer service to make a request.\n\n## 7. Minors\n\nThe services are not intended for minors. Minors under 16 may only provide personal data with the consent of a parent or guardian; if we learn that we hold such data without consent we delete it.\n\n## 8. Changes\n\nWe will announce changes to this policy in the app before they take effect.\n\n## 9. Contact\n\nFor privacy questions, please contact our customer service through the app.",
  },
  {
    slug: 'otc',
    titleZh: 'C2C交易条款',
    titleEn: 'P2P trading terms',
    bodyZh:
      '一、范围。C2C（法币）交易让已实名用户与商家以人民币买卖 USDT。平台托管卖家的币，法币款项由双方在平台外直接支付。\n\n二、交易资格。仅完成实名认证并设置昵称的用户可以下单。出售需要启用本人实名的收款方式并输入交易密码。\n\n三、价格与数量。价格在下单时确定。数量为金额除以单价，向下取整到 0.00000001 USDT，买家获得的币不会超过所付款项。\n\n四、付款。买家须在付款时限内，用本人实名账户向订单显示的卖家账户付款，然后点击“我已付款”。超过付款时限未付款的订单将自动取消，托管的币退回卖家。同一天取消3次的用户当天（北京时间）不能再下单。\n\n五、放币。卖家确认到账后输入交易密码（已绑定谷歌验证器时还需谷歌验证码）放币，币从托管准确转入买家的法币账户。\n\n六、申诉。订单标记付款一段时间后，任一方可提交原因、描述和证据发起申诉。客服放币给买家或退回卖家之前，币保持冻结；处理原因对双方可见。\n\n七、风险提示。未确认到账前切勿放币。切勿向订单未显示的账户付款。平台不会要求您在订单之外交易。',
    bodyEn:
      "1. Scope. P2P (OTC) trading lets verified users buy and sell USDT for CNY with merchants. The platform holds the seller's coins in escrow; the fiat payment is made directly between the two sides outside the platform.\n\n2. Who may trade. Only users with completed identity verification and a nickname may place orders. Selling requires an enabled payment method in the verified name and the transaction password.\n\n3. Prices and quantities. The price is fixed when the order is created. The quantity is the amount divided by the price, rounded down to 0.00000001 USDT, so a buyer never receives more than was paid for.\n\n4. Paying. The buyer pays the seller's shown account within the payment time limit, from an account in the buyer's own name, and then taps \"I have paid\". An unpaid order is cancelled automatically when the time limit passes and the escrow returns to the seller. Three cancellations in a day bar a user from new orders until the next day (Asia/Shanghai time).\n\n5. Releasing. The seller confirms that the funds arrived and releases the coins with the transaction password (and Google authenticator code when bound). The coins move from the escrow to the buyer's OTC account exactly.\n\n6. Appeals. After a short wait once an order is marked paid, either side may appeal with a reason, a description and evidence. The coins stay frozen until an operator releases them to the buyer or returns them to the seller; the reason is shown to both sides.\n\n7. Risks. Never release before the funds have arrived in your account. Never pay to an account not shown in the order. The platform never asks you to trade outside an order.",
  },
  {
    slug: 'merchant',
    titleZh: '商家协议',
    titleEn: 'Merchant agreement',
    bodyZh:
      '一、资格。商家是指已完成实名认证、设置交易密码、至少启用一种本人实名收款方式并经平台审核通过的用户。\n\n二、保证金。申请时平台从商家的法币账户冻结保证金。商家处于审核中、已认证或已暂停状态期间保证金保持冻结；申请被拒绝，或商家在所有广告关闭且无进行中订单时退出，保证金解冻。\n\n三、广告。商家发布价格、数量、单笔限额、接受的收款方式和付款时限。出售广告发布时，其数量从商家法币账户托管冻结。商家应保持广告信息准确，无法交易时应暂停广告。\n\n四、订单。用户购买出售广告时，商家只能接受买家本人实名账户的付款，并在确认到账后及时放币。用户出售给购买广告时，商家须在付款时限内向卖家选择的收款方式足额付款。\n\n五、行为规范。禁止在订单流程之外付款、要求在转账备注中填写数字货币相关字样、骚扰对方或发布误导性条款。与订单有关的沟通均应在订单聊天中进行。\n\n六、争议。任一方可对已付款订单发起申诉。平台客服依据证据、聊天记录和付款记录作出处理，可放币给买家或退回卖家。该处理结果在平台内为最终结果。\n\n七、暂停。对违反本协议、多次被有效申诉或涉嫌欺诈、洗钱的商家，平台可暂停其商家资格，并在法律要求时向有关部门报告。',
    bodyEn:
      "1. Eligibility. A merchant is a user who has completed identity verification, set a transaction password, holds at least one enabled payment method in the verified name and has been approved by the platform.\n\n2. Security deposit. On application the platform holds the security deposit from the merchant's OTC account. The deposit stays frozen while the merchant is pending review, active or suspended, and is released when the application is rejected or the merchant leaves with every ad closed and no open order.\n\n3. Advertisements. A merchant publishes prices, quantities, per-order limits, accepted payment methods and a payment time limit. The coins of a sell ad are held in escrow from the merchant's OTC account when it is published. The merchant keeps ads accurate and pauses them when not available.\n\n4. Orders. When a user takes a sell ad, the merchant must accept payment only from an account in the buyer's verified name and release the coins promptly after the funds have arrived. When a user takes a buy ad, the merchant must pay the seller's chosen method in full within the time limit.\n\n5. Conduct. Payments outside the platform's order flow, requests to write crypto words in transfer notes, harassment and misleading terms are forbidden. All communication about an order happens in the order chat.\n\n6. Disputes. Either side may appeal a paid order. The platform's operators decide on the evidence, the chat and the payment records, and may release or return the escrow. Their decision is final for the platform.\n\n7. Suspension. The platform may suspend a merchant who breaks these rules, receives repeated justified appeals or is suspected of fraud or money laundering, and may report to the authorities where the law requires.",
  },
  {
    slug: 'download',
    titleZh: '下载 App',
    titleEn: 'Download the app',
    bodyZh:
      '随时随地交易现货、USDT 永续合约和法币。\n\n## 安装到手机\n\n用手机扫描二维码打开本站，再在浏览器菜单中选择“添加到主屏幕”，即可像原生 App 一样使用，行情与委托实时更新。\n\n## 原生 App\n\nAndroid 与 iOS 安装包发布后，下载链接与二维码将显示在本页。请只从本页下载，谨防仿冒应用。',
    bodyEn:
      'Trade spot, USDT perpetual contracts and fiat wherever you are.\n\n## Install on your phone\n\nScan the QR code with your phone to open this site, then choose "Add to Home Screen" in the browser menu: it runs like a native app, with live prices and orders.\n\n## Native apps\n\nWhen the Android and iOS packages are published, their links and QR codes appear on this page. Only download from this page and beware of fake apps.',
    version: '1.0.0',
    androidUrl: '/',
    iosUrl: '/',
  },
];
