/**
 * The demo's initial help centre: four categories and their articles in zh and en, describing how this
 * app works (the rules quoted are the product's: spec sections 5 and 9, and the modules that enforce them).
 * Body format: packages/api content.ts (blank line between paragraphs, "## " headings).
 */

/** A seeded category with its articles, in display order. */
export interface HelpCategorySeed {
  slug: string;
  titleZh: string;
  titleEn: string;
  bodyZh: string;
  bodyEn: string;
  articles: ReadonlyArray<{ slug: string; titleZh: string; titleEn: string; bodyZh: string; bodyEn: string }>;
}

/** The help centre. */
export const HELP: readonly HelpCategorySeed[] = [
  {
    slug: 'getting-started',
    titleZh: '新手指南',
    titleEn: 'Getting started',
    bodyZh: '注册、登录与身份认证',
    bodyEn: 'Sign up, log in and verify your identity',
    articles: [
      {
        slug: 'how-to-register',
        titleZh: '如何注册账户？',
        titleEn: 'How do I create an account?',
        bodyZh:
          '1. 在首页点击左上角头像打开侧边菜单，或直接打开“资产”页，进入登录页后点击“注册”。\n\n2. 输入邮箱，完成滑块验证后获取 6 位邮箱验证码。\n\n3. 设置 8-20 位登录密码（不能为纯数字）并再次确认；如有邀请码可填写（选填）。\n\n4. 阅读并勾选《用户协议》与《隐私政策》后提交。注册成功后会提示设置昵称，昵称只能设置一次。',
        bodyEn:
          '1. Tap the avatar at the top left of the home page to open the side menu, or open the Assets tab; on the login page tap "Sign up".\n\n2. Enter your e-mail, complete the slider puzzle and request the 6-digit e-mail code.\n\n3. Choose a login password of 8-20 characters (not only digits) and confirm it; enter an invitation code if you have one (optional).\n\n4. Read and accept the User Agreement and the Privacy Policy, then submit. After signing up you are asked for a nickname, which can be set only once.',
      },
      {
        slug: 'identity-verification',
        titleZh: '为什么要进行身份认证？',
        titleEn: 'Why do I need to verify my identity?',
        bodyZh:
          '提币、收款方式和法币交易需要完成身份认证（实名认证）。\n\n## 初级认证\n\n填写国家或地区、姓名和证件号码，提交后即可完成。\n\n## 高级认证\n\n上传证件正面、背面和手持证件照片（JPEG、PNG 或 WebP，每张不超过 5MB）。提交后进入审核，审核结果会在个人中心显示；被驳回时会注明原因，您可以重新提交。',
        bodyEn:
          'Withdrawals, payment methods and fiat trading need a verified identity.\n\n## Basic verification\n\nEnter your country or region, your name and your ID number; it completes at once.\n\n## Advanced verification\n\nUpload the front and back of your ID and a photo of you holding it (JPEG, PNG or WebP, at most 5 MB each). The application is then under review; the result shows in the personal centre, and a rejection comes with its reason so that you can submit again.',
      },
    ],
  },
  {
    slug: 'deposit-withdraw',
    titleZh: '充值与提币',
    titleEn: 'Deposits and withdrawals',
    bodyZh: '充值地址、提币审核与资金划转',
    bodyEn: 'Deposit addresses, withdrawal reviews and transfers',
    articles: [
      {
        slug: 'how-to-deposit',
        titleZh: '如何充值？',
        titleEn: 'How do I deposit?',
        bodyZh:
          '1. 在“资产”页点击“充币”，选择币种和网络。\n\n2. 复制充值地址或保存二维码，从其他钱包或平台向该地址转账。请务必确认网络一致，转错网络的资产可能无法找回。\n\n3. 链上交易达到所需确认数后，资产自动记入您的资金账户，可在“资金记录”中查看进度。',
        bodyEn:
          '1. On the Assets tab tap "Deposit", then choose the coin and the network.\n\n2. Copy the deposit address or save its QR code, and send the coins to it from another wallet or exchange. Make sure the network matches: coins sent on another network may be lost.\n\n3. Once the transaction has the required confirmations, the coins are credited to your funding account; follow the progress in the capital records.',
      },
      {
        slug: 'withdraw-review',
        titleZh: '提币为什么需要审核？',
        titleEn: 'Why are withdrawals reviewed?',
        bodyZh:
          '为保护您的资产，提币申请会先冻结相应金额，再由风控审核，大额提币需要两名审核员批准。审核通过后交易才会广播到区块链。\n\n修改登录密码或关闭谷歌验证后 24 小时内不能提币。提币前请确认地址正确：链上转账一经广播无法撤回。',
        bodyEn:
          'To protect your assets, a withdrawal first holds the amount, then it is reviewed; large withdrawals need the approval of two reviewers. Only then is the transaction broadcast to the blockchain.\n\nWithdrawals are blocked for 24 hours after you change your login password or turn off Google authentication. Check the address before you withdraw: a broadcast transaction cannot be undone.',
      },
    ],
  },
  {
    slug: 'trading',
    titleZh: '交易',
    titleEn: 'Trading',
    bodyZh: '现货、永续合约与法币交易',
    bodyEn: 'Spot, perpetual contracts and fiat trading',
    articles: [
      {
        slug: 'spot-orders',
        titleZh: '限价单与市价单有什么区别？',
        titleEn: 'What is the difference between limit and market orders?',
        bodyZh:
          '## 限价单\n\n以您指定的价格或更优价格成交；未成交部分挂在盘口，可在“当前委托”中撤销。\n\n## 市价单\n\n按盘口当前最优价格立即成交，成交价可能与最新价不同。\n\n现货交易手续费为成交额的 0.1%，价格和数量须符合交易对的最小变动单位。',
        bodyEn:
          "## Limit order\n\nTrades at your price or better; what does not trade at once rests in the order book, and you can cancel it under open orders.\n\n## Market order\n\nTrades at once at the best prices in the book, which may differ from the last price.\n\nThe spot fee is 0.1% of the traded value; prices and amounts must be multiples of the pair's tick and step sizes.",
      },
      {
        slug: 'perpetual-liquidation',
        titleZh: '永续合约什么时候会被强平？',
        titleEn: 'When is a perpetual contract position liquidated?',
        bodyZh:
          'USDT 永续合约使用保证金和杠杆交易，每手 1000 USDT。当账户风险率达到 100% 时，系统会按标记价格强制平仓，仓位保证金将全部损失。\n\n您可以为仓位设置止盈止损：做多时止盈价须高于当前价、止损价须低于当前价，做空时相反。限价委托价格不能偏离当前价格超过 50%。',
        bodyEn:
          'USDT perpetual contracts trade on margin with leverage, at 1,000 USDT per lot. When the account risk level reaches 100%, the position is closed at the mark price and its margin is lost.\n\nYou can set take profit and stop loss on a position: for a long, take profit above and stop loss below the current price; for a short, the other way round. A limit price may not deviate more than 50% from the current price.',
      },
    ],
  },
  {
    slug: 'security',
    titleZh: '账户安全',
    titleEn: 'Account security',
    bodyZh: '密码、谷歌验证与登录设备',
    bodyEn: 'Passwords, Google authentication and devices',
    articles: [
      {
        slug: 'google-authenticator',
        titleZh: '如何绑定谷歌验证器？',
        titleEn: 'How do I bind Google Authenticator?',
        bodyZh:
          '1. 打开“账户中心” > “谷歌验证”。\n\n2. 用谷歌验证器扫描二维码或手动输入密钥，并妥善备份密钥。\n\n3. 输入验证器显示的 6 位验证码完成绑定。绑定后登录和提币需要输入谷歌验证码。',
        bodyEn:
          '1. Open Account centre > Google Authenticator.\n\n2. Scan the QR code with the authenticator app or type the key, and keep a backup of the key.\n\n3. Enter the 6-digit code the app shows to finish. From then on, logging in and withdrawing ask for the code.',
      },
      {
        slug: 'transaction-password',
        titleZh: '什么是交易密码？',
        titleEn: 'What is the transaction password?',
        bodyZh:
          '交易密码是 6 位数字，用于法币交易放币、申请商家等敏感操作，与登录密码分开设置。连续输错 5 次将被锁定一段时间。忘记交易密码可在“账户中心”通过验证码找回。',
        bodyEn:
          'The transaction password is 6 digits. It confirms sensitive actions such as releasing coins in fiat trading or applying as a merchant, and is separate from the login password. Five wrong attempts lock it for a while. If you forget it, recover it with a verification code in the account centre.',
      },
    ],
  },
];
