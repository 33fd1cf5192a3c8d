/**
 * Seeded content: home banners (drawn here as SVG, no downloads) and official notices in zh and en
 * (spec section 2: banner carousel, notice line and list). Notice times are offsets before the first start.
 */

/** A banner: titles per language; the image is drawn by `bannerSvg`. */
export interface BannerSeed {
  slug: string;
  titleZh: string;
  titleEn: string;
  subtitleZh: string;
  subtitleEn: string;
  /** Gradient colours (from, to) and accent. */
  colors: [string, string, string];
  link: string;
}

/** The three home banners, in carousel order. */
export const BANNERS: readonly BannerSeed[] = [
  {
    slug: 'welcome',
    titleZh: '欢迎体验演示交易所',
    titleEn: 'Welcome to the demo exchange',
    subtitleZh: '注册即得 10,000 USDT 演示资金',
    subtitleEn: 'Sign up and get 10,000 demo USDT',
    colors: ['#1e3c72', '#2a5298', '#f0b90b'],
    link: '/register',
  },
  {
    slug: 'new-listings',
    titleZh: 'SUI 与 TON 现已上线',
    titleEn: 'SUI and TON are now listed',
    subtitleZh: 'SUI/USDT、TON/USDT 现货交易已开放',
    subtitleEn: 'Spot trading of SUI/USDT and TON/USDT is open',
    colors: ['#0f2027', '#2c5364', '#4da2ff'],
    link: '/quotes',
  },
  {
    slug: 'contract',
    titleZh: 'USDT 永续合约',
    titleEn: 'USDT perpetual contracts',
    subtitleZh: 'BTC、ETH 等 7 个合约，指数价格实时更新',
    subtitleEn: 'Seven contracts incl. BTC and ETH, live index prices',
    colors: ['#42275a', '#734b6d', '#0ecb81'],
    link: '/contract',
  },
];

/** XML-escapes text for SVG. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The banner image as an SVG document, 750x300 (a 2.5:1 phone banner): gradient background, a stylised
 * candlestick chart and the title and subtitle in `lang`.
 */
export function bannerSvg(b: BannerSeed, lang: 'zh' | 'en'): string {
  const [from, to, accent] = b.colors;
  const title = esc(lang === 'zh' ? b.titleZh : b.titleEn);
  const sub = esc(lang === 'zh' ? b.subtitleZh : b.subtitleEn);
  // A fixed candlestick pattern (x, open, close, high, low) in banner pixels; up candles in the accent colour.
  const candles: Array<[number, number, number, number, number]> = [
    [470, 210, 180, 170, 222],
    [500, 185, 200, 176, 212],
    [530, 198, 160, 150, 205],
    [560, 162, 140, 128, 170],
    [590, 142, 156, 134, 166],
    [620, 150, 118, 104, 158],
    [650, 120, 96, 86, 128],
    [680, 98, 110, 90, 120],
    [710, 108, 74, 62, 114],
  ];
  const bars = candles
    .map(([x, o, c, h, l]) => {
      const up = c < o;
      const color = up ? accent : '#f6465d';
      const top = Math.min(o, c);
      const height = Math.max(2, Math.abs(o - c));
      return `<line x1="${x}" y1="${h}" x2="${x}" y2="${l}" stroke="${color}" stroke-width="2"/><rect x="${x - 8}" y="${top}" width="16" height="${height}" fill="${color}" rx="2"/>`;
    })
    .join('');
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="750" height="300" viewBox="0 0 750 300">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`,
    '<rect width="750" height="300" rx="16" fill="url(#g)"/>',
    '<circle cx="640" cy="40" r="120" fill="#ffffff" opacity="0.05"/><circle cx="700" cy="260" r="90" fill="#ffffff" opacity="0.05"/>',
    `<polyline points="450,230 500,200 530,182 560,150 590,150 620,120 650,100 680,104 710,80 740,60" fill="none" stroke="${accent}" stroke-opacity="0.35" stroke-width="3"/>`,
    bars,
    `<text x="40" y="130" font-family="Helvetica, Arial, 'PingFang SC', 'Microsoft YaHei', sans-serif" font-size="40" font-weight="700" fill="#ffffff">${title}</text>`,
    `<text x="40" y="180" font-family="Helvetica, Arial, 'PingFang SC', 'Microsoft YaHei', sans-serif" font-size="24" fill="#ffffff" opacity="0.85">${sub}</text>`,
    `<rect x="40" y="210" width="150" height="44" rx="22" fill="${accent}"/>`,
    `<text x="115" y="239" text-anchor="middle" font-family="Helvetica, Arial, 'PingFang SC', sans-serif" font-size="20" font-weight="700" fill="#1e2329">${lang === 'zh' ? '立即查看' : 'Learn more'}</text>`,
    '</svg>',
  ].join('');
}

/** The file name of a banner image: `<slug>-<lang>.svg`. */
export function bannerFile(slug: string, lang: 'zh' | 'en'): string {
  return `${slug}-${lang}.svg`;
}

/** URL prefix the banner images are served under (route in market-data.routes.ts). */
export const BANNER_URL_PREFIX = '/api/static/banners/';

/** A notice to seed; `hoursAgo` places its createTime before the first start. */
export interface NoticeSeed {
  slug: string;
  hoursAgo: number;
  titleZh: string;
  titleEn: string;
  contentZh: string;
  contentEn: string;
}

/** The seeded official notices (listings of SUI and TON, demo mode, maintenance, risk warning, contracts). */
export const NOTICES: readonly NoticeSeed[] = [
  {
    slug: 'listing-ton',
    hoursAgo: 24,
    titleZh: '关于上线 TON（Toncoin）并开放 TON/USDT 现货交易的公告',
    titleEn: 'Listing of Toncoin (TON) and opening of TON/USDT spot trading',
    contentZh:
      '尊敬的用户：\n\n本平台已上线 Toncoin（TON），并开放 TON/USDT 现货交易对。\n\n交易规则：价格精度 0.001 USDT，数量精度 0.01 TON，最小下单金额 5 USDT，挂单与吃单手续费均为 0.1%。\n\nTON 是开放网络（The Open Network）的原生代币，详情请查看行情页的币种介绍。新币上线初期价格波动可能较大，请注意风险，理性投资。\n\n感谢您的支持！\n平台运营团队',
    contentEn:
      'Dear users,\n\nWe have listed Toncoin (TON) and opened the TON/USDT spot market.\n\nTrading rules: price tick 0.001 USDT, quantity step 0.01 TON, minimum order value 5 USDT, maker and taker fee 0.1%.\n\nTON is the native coin of The Open Network; see the coin introduction on the market page for details. Prices of newly listed coins can swing widely; please trade with care.\n\nThank you for your support.\nThe Operations Team',
  },
  {
    slug: 'listing-sui',
    hoursAgo: 72,
    titleZh: '关于上线 SUI 并开放 SUI/USDT 现货交易的公告',
    titleEn: 'Listing of Sui (SUI) and opening of SUI/USDT spot trading',
    contentZh:
      '尊敬的用户：\n\n本平台已上线 Sui（SUI），并开放 SUI/USDT 现货交易对。\n\n交易规则：价格精度 0.0001 USDT，数量精度 0.1 SUI，最小下单金额 5 USDT，挂单与吃单手续费均为 0.1%。\n\nSui 是由 Mysten Labs 开发、采用 Move 语言的高性能公链。新币上线初期价格波动可能较大，请注意风险，理性投资。\n\n感谢您的支持！\n平台运营团队',
    contentEn:
      'Dear users,\n\nWe have listed Sui (SUI) and opened the SUI/USDT spot market.\n\nTrading rules: price tick 0.0001 USDT, quantity step 0.1 SUI, minimum order value 5 USDT, maker and taker fee 0.1%.\n\nSui is a high-performance layer-1 blockchain by Mysten Labs built on the Move language. Prices of newly listed coins can swing widely; please trade with care.\n\nThank you for your support.\nThe Operations Team',
  },
  {
    slug: 'demo-mode',
    hoursAgo: 120,
    titleZh: '演示模式说明：演示行情与演示资金',
    titleEn: 'About demo mode: demo market data and demo funds',
    contentZh:
      '尊敬的用户：\n\n本站当前运行于演示模式，请注意：\n\n1. 演示资金：新注册用户将获得 10,000 USDT 演示资金，记入现货账户。演示资金不具有任何真实价值，不能提现，也不能兑换为法币或其他资产。\n2. 行情数据：BTC、ETH、LTC 的价格回放自真实历史行情，并映射到当前时间；BNB、SOL、XRP、DOGE、ADA、SUI、TON 的价格由带随机种子的模型生成，在行情页标注为“演示数据”，不代表真实市场价格。\n3. 成交：盘口由平台做市机器人通过与用户相同的下单接口提供流动性，成交真实撮合，但仅在演示环境内有效。\n\n演示环境的数据可能被随时重置。\n\n平台运营团队',
    contentEn:
      'Dear users,\n\nThis site currently runs in demo mode. Please note:\n\n1. Demo funds: every new account is credited with 10,000 demo USDT in the spot account. Demo funds have no real value and cannot be withdrawn or exchanged for fiat or other assets.\n2. Market data: BTC, ETH and LTC prices replay real historical market data mapped onto the current time; BNB, SOL, XRP, DOGE, ADA, SUI and TON prices come from a seeded model, are labelled "demo data" on the market pages and are not real market prices.\n3. Trades: the order books are quoted by the platform\'s market-making bots through the same order entry as users; orders are really matched, but only inside the demo environment.\n\nDemo data may be reset at any time.\n\nThe Operations Team',
  },
  {
    slug: 'maintenance',
    hoursAgo: 168,
    titleZh: '系统升级维护公告',
    titleEn: 'Scheduled system maintenance',
    contentZh:
      '尊敬的用户：\n\n为提供更稳定的服务，平台将于北京时间周四 02:00 至 04:00 进行系统升级维护。维护期间充值、提现及划转将暂停，已挂出的委托不受影响，行情与撮合服务可能出现短暂中断。\n\n维护完成后所有功能将自动恢复，无需任何操作。如遇问题请联系在线客服。给您带来的不便，敬请谅解。\n\n平台运营团队',
    contentEn:
      'Dear users,\n\nTo keep our service stable, we will upgrade our systems on Thursday from 02:00 to 04:00 (UTC+8). During the maintenance deposits, withdrawals and transfers are paused; open orders are not affected, while market data and matching may be briefly interrupted.\n\nAll functions resume automatically afterwards; no action is needed. If you have any problem, please contact customer service. We apologise for the inconvenience.\n\nThe Operations Team',
  },
  {
    slug: 'risk-warning',
    hoursAgo: 336,
    titleZh: '数字资产交易风险提示',
    titleEn: 'Risk warning on digital asset trading',
    contentZh:
      '尊敬的用户：\n\n数字资产价格波动剧烈，7×24 小时不间断交易，没有涨跌幅限制，可能在短时间内大幅上涨或下跌。永续合约使用杠杆，亏损可能超过预期，当风险率达到 100% 时仓位将被强制平仓，保证金全部损失。\n\n请您充分了解数字资产及合约交易的风险，根据自身的财务状况和风险承受能力谨慎投资，切勿使用无法承受损失的资金参与交易。请警惕任何以平台名义进行的诈骗，平台工作人员不会索要您的密码和验证码。\n\n平台运营团队',
    contentEn:
      'Dear users,\n\nDigital asset prices are highly volatile. Markets trade around the clock without price limits and can rise or fall sharply within a short time. Perpetual contracts use leverage, so losses can exceed your expectations; a position is liquidated when its risk level reaches 100%, and all of its margin is lost.\n\nPlease make sure you understand the risks of digital assets and contract trading, invest according to your financial situation and risk tolerance, and never trade with money you cannot afford to lose. Beware of scams in our name: our staff will never ask for your password or verification codes.\n\nThe Operations Team',
  },
  {
    slug: 'contract-listings',
    hoursAgo: 480,
    titleZh: 'USDT 永续合约交易对上线预告',
    titleEn: 'Coming soon: USDT perpetual contracts',
    contentZh:
      '尊敬的用户：\n\n平台已上线 BTC、ETH、LTC、BNB、SOL、XRP、DOGE 共 7 个 USDT 永续合约交易对的行情与指数价格。指数价格为多个来源价格的加权平均，各来源价格被限制在中位数 ±3% 范围内，过期来源将被剔除。\n\n合约交易功能即将开放，新合约规则为每张 1000 USDT，限价委托价格偏离当前价格不得超过 50%。敬请期待！\n\n平台运营团队',
    contentEn:
      'Dear users,\n\nMarket data and index prices of seven USDT perpetual contracts (BTC, ETH, LTC, BNB, SOL, XRP and DOGE) are now live. The index price is a weighted average of several sources, each clamped to the median ±3%; stale sources are dropped.\n\nContract trading opens soon: one lot is 1000 USDT, and a limit price may not deviate more than 50% from the current price. Stay tuned!\n\nThe Operations Team',
  },
];
