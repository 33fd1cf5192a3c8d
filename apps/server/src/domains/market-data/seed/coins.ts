/**
 * Coin introductions (spec section 1, quotes: issue time, total and circulating supply, crowdfunding price,
 * white paper, website, block explorer) from the coins' public facts. Supplies of inflationary or burning coins
 * are approximate (as of 2025) and say so. Crowdfunding price "--" where the coin had no public sale.
 */

/** One coin's introduction row (table `coins`). */
export interface CoinFacts {
  code: string;
  fullName: string;
  issueTime: string;
  totalSupply: string;
  circulatingSupply: string;
  crowdfundingPrice: string;
  whitePaper: string;
  website: string;
  blockExplorer: string;
  introZh: string;
  introEn: string;
}

/** Every coin of the catalogue plus USDT, in display order. */
export const COIN_FACTS: readonly CoinFacts[] = [
  {
    code: 'BTC',
    fullName: 'Bitcoin',
    issueTime: '2009-01-03',
    totalSupply: '21,000,000',
    circulatingSupply: '≈19,900,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://bitcoin.org/bitcoin.pdf',
    website: 'https://bitcoin.org',
    blockExplorer: 'https://mempool.space',
    introEn:
      'Bitcoin is the first decentralised digital currency, described in 2008 by Satoshi Nakamoto in the paper "Bitcoin: A Peer-to-Peer Electronic Cash System". The genesis block was mined on 3 January 2009. Transactions are secured by proof-of-work mining; the block reward halves every 210,000 blocks, so no more than 21 million bitcoin will ever exist.',
    introZh:
      '比特币是第一种去中心化的数字货币，由中本聪于2008年在论文《比特币：一种点对点的电子现金系统》中提出，创世区块于2009年1月3日被挖出。比特币通过工作量证明挖矿保障交易安全，区块奖励每210,000个区块减半，总量永远不超过2100万枚。',
  },
  {
    code: 'ETH',
    fullName: 'Ethereum',
    issueTime: '2015-07-30',
    totalSupply: '-- (no fixed cap)',
    circulatingSupply: '≈120,700,000',
    crowdfundingPrice: '≈0.31 USD',
    whitePaper: 'https://ethereum.org/en/whitepaper/',
    website: 'https://ethereum.org',
    blockExplorer: 'https://etherscan.io',
    introEn:
      'Ethereum is a programmable blockchain proposed by Vitalik Buterin in 2013 and launched on 30 July 2015 after a 2014 public sale (2,000 ETH per BTC, about 0.31 USD). Ether pays for computation of smart contracts. Since "The Merge" in September 2022 the network is secured by proof-of-stake, and part of every fee is burned (EIP-1559).',
    introZh:
      '以太坊是由Vitalik Buterin于2013年提出的可编程区块链，经过2014年的公开众筹（1 BTC兑2000 ETH，约0.31美元）后于2015年7月30日上线。以太币用于支付智能合约的计算费用。自2022年9月“合并”以来，网络采用权益证明共识，每笔手续费的一部分会被销毁（EIP-1559）。',
  },
  {
    code: 'LTC',
    fullName: 'Litecoin',
    issueTime: '2011-10-07',
    totalSupply: '84,000,000',
    circulatingSupply: '≈76,000,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://litecoin.org',
    website: 'https://litecoin.org',
    blockExplorer: 'https://litecoinspace.org',
    introEn:
      'Litecoin was created by Charlie Lee as a fork of the Bitcoin code and launched in October 2011 without a pre-mine or sale. It uses the Scrypt proof-of-work algorithm, produces a block every 2.5 minutes and is capped at 84 million coins. It has no formal white paper; the project site documents the protocol.',
    introZh:
      '莱特币由Charlie Lee基于比特币代码创建，于2011年10月上线，没有预挖也没有众筹。它采用Scrypt工作量证明算法，每2.5分钟出一个区块，总量上限为8400万枚。莱特币没有正式白皮书，协议说明见项目官网。',
  },
  {
    code: 'BNB',
    fullName: 'BNB',
    issueTime: '2017-07-08',
    totalSupply: '≈139,000,000 (200,000,000 at issue, reduced by burns)',
    circulatingSupply: '≈139,000,000',
    crowdfundingPrice: '≈0.15 USD',
    whitePaper: 'https://github.com/bnb-chain/whitepaper/blob/master/WHITEPAPER.md',
    website: 'https://www.bnbchain.org',
    blockExplorer: 'https://bscscan.com',
    introEn:
      'BNB was issued in July 2017 in an initial coin offering at about 0.15 USD, first as an ERC-20 token, and later moved to its own chain. It is the native coin of BNB Smart Chain, used for gas fees and staking. Quarterly burns reduce the supply from the original 200 million towards 100 million.',
    introZh:
      'BNB于2017年7月通过首次代币发行（约0.15美元）发行，最初为ERC-20代币，后迁移至自有公链。它是BNB智能链的原生代币，用于支付Gas费和质押。按季度销毁机制使其总量从最初的2亿枚逐步减少至1亿枚。',
  },
  {
    code: 'SOL',
    fullName: 'Solana',
    issueTime: '2020-03-16',
    totalSupply: '≈600,000,000 (inflationary)',
    circulatingSupply: '≈540,000,000',
    crowdfundingPrice: '0.22 USD',
    whitePaper: 'https://solana.com/solana-whitepaper.pdf',
    website: 'https://solana.com',
    blockExplorer: 'https://explorer.solana.com',
    introEn:
      'Solana is a high-throughput layer-1 blockchain founded by Anatoly Yakovenko. Its mainnet beta launched on 16 March 2020, shortly before a public auction on CoinList at 0.22 USD. Proof of History orders transactions before proof-of-stake consensus, enabling sub-second block times and low fees.',
    introZh:
      'Solana是由Anatoly Yakovenko创立的高吞吐量公链，主网测试版于2020年3月16日上线，随后在CoinList以0.22美元公开拍卖。历史证明（Proof of History）在权益证明共识之前为交易排序，实现亚秒级出块和低手续费。',
  },
  {
    code: 'XRP',
    fullName: 'XRP',
    issueTime: '2012-06-02',
    totalSupply: '≈99,990,000,000',
    circulatingSupply: '≈59,000,000,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://ripple.com/files/ripple_consensus_whitepaper.pdf',
    website: 'https://xrpl.org',
    blockExplorer: 'https://livenet.xrpl.org',
    introEn:
      'XRP is the native asset of the XRP Ledger, launched in June 2012 by David Schwartz, Jed McCaleb and Arthur Britto. All 100 billion XRP were created at genesis; a small amount is destroyed with every transaction fee. Validators reach agreement through the XRP Ledger consensus protocol rather than mining, settling payments in 3 to 5 seconds.',
    introZh:
      'XRP是XRP账本的原生资产，由David Schwartz、Jed McCaleb和Arthur Britto于2012年6月推出。1000亿枚XRP在创世时全部生成，每笔交易手续费会销毁少量XRP。验证者通过XRP账本共识协议而非挖矿达成一致，支付在3到5秒内完成结算。',
  },
  {
    code: 'DOGE',
    fullName: 'Dogecoin',
    issueTime: '2013-12-06',
    totalSupply: '-- (no fixed cap, 5 billion added per year)',
    circulatingSupply: '≈150,000,000,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://github.com/dogecoin/dogecoin',
    website: 'https://dogecoin.com',
    blockExplorer: 'https://blockchair.com/dogecoin',
    introEn:
      'Dogecoin was created by Billy Markus and Jackson Palmer and launched on 6 December 2013, inspired by the "Doge" meme. It uses Scrypt proof-of-work, merge-mined with Litecoin since 2014, with a one-minute block time and a fixed reward of 10,000 DOGE per block. It has no white paper; the source code is the reference.',
    introZh:
      '狗狗币由Billy Markus和Jackson Palmer创建，于2013年12月6日上线，灵感来自“Doge”表情包。它采用Scrypt工作量证明，自2014年起与莱特币联合挖矿，出块时间1分钟，每个区块固定奖励10,000 DOGE。狗狗币没有白皮书，以源代码为准。',
  },
  {
    code: 'ADA',
    fullName: 'Cardano',
    issueTime: '2017-09-29',
    totalSupply: '45,000,000,000',
    circulatingSupply: '≈36,000,000,000',
    crowdfundingPrice: '≈0.0024 USD',
    whitePaper: 'https://eprint.iacr.org/2016/889.pdf',
    website: 'https://cardano.org',
    blockExplorer: 'https://cardanoscan.io',
    introEn:
      'Cardano is a proof-of-stake blockchain co-founded by Charles Hoskinson and developed by IOG from peer-reviewed research. Its Ouroboros protocol is described in the paper linked as the white paper. ADA was sold in 2015-2017 at about 0.0024 USD and the mainnet launched on 29 September 2017; the supply is capped at 45 billion ADA.',
    introZh:
      'Cardano（艾达币）是由Charles Hoskinson联合创立、IOG基于同行评审研究开发的权益证明公链，其Ouroboros共识协议见白皮书链接的论文。ADA于2015至2017年以约0.0024美元出售，主网于2017年9月29日上线，总量上限450亿枚。',
  },
  {
    code: 'SUI',
    fullName: 'Sui',
    issueTime: '2023-05-03',
    totalSupply: '10,000,000,000',
    circulatingSupply: '≈3,500,000,000',
    crowdfundingPrice: '0.10 USD',
    whitePaper: 'https://docs.sui.io/paper/sui.pdf',
    website: 'https://sui.io',
    blockExplorer: 'https://suiscan.xyz',
    introEn:
      'Sui is a layer-1 blockchain built by Mysten Labs, founded by former Meta engineers. It stores assets as objects and executes transactions that touch independent objects in parallel, written in the Move language. The mainnet launched on 3 May 2023 after community access programmes at 0.10 USD; the supply is fixed at 10 billion SUI.',
    introZh:
      'Sui是由前Meta工程师创立的Mysten Labs开发的公链，以对象模型存储资产，对互不相关的对象并行执行交易，智能合约使用Move语言编写。主网于2023年5月3日上线，此前社区公售价格为0.10美元，总量固定为100亿枚。',
  },
  {
    code: 'TON',
    fullName: 'Toncoin',
    issueTime: '2019-11-15',
    totalSupply: '≈5,100,000,000',
    circulatingSupply: '≈2,500,000,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://ton.org/whitepaper.pdf',
    website: 'https://ton.org',
    blockExplorer: 'https://tonscan.org',
    introEn:
      'Toncoin is the native coin of The Open Network, designed by Nikolai Durov for Telegram. Five billion coins were created when testnet2 started in November 2019; after Telegram withdrew in 2020 the community distributed them through proof-of-work "giver" contracts until June 2022 (the 2018 Gram sale was refunded, so there was no public sale price). The network now runs on proof-of-stake with dynamic sharding.',
    introZh:
      'Toncoin是开放网络（The Open Network）的原生代币，由Nikolai Durov为Telegram设计。2019年11月testnet2启动时生成了50亿枚；Telegram于2020年退出后，社区通过工作量证明“Giver”合约分发至2022年6月（2018年的Gram私募已退款，因此没有公开发售价格）。网络现采用权益证明与动态分片。',
  },
  {
    code: 'USDT',
    fullName: 'Tether USD',
    issueTime: '2014-10-06',
    totalSupply: '-- (issued on demand)',
    circulatingSupply: '≈180,000,000,000',
    crowdfundingPrice: '--',
    whitePaper: 'https://tether.to/en/whitepaper/',
    website: 'https://tether.to',
    blockExplorer: 'https://tronscan.org',
    introEn:
      'Tether (USDT) is a stablecoin issued by Tether Limited since October 2014 and meant to hold a value of one US dollar, backed by reserves. It is issued and redeemed on demand on several chains (Ethereum, Tron and others) and is the quote currency of most spot markets on this exchange.',
    introZh:
      '泰达币（USDT）是Tether公司自2014年10月起发行的稳定币，以储备资产支持，价值锚定1美元，可在以太坊、波场等多条链上按需发行和赎回，是本交易所大多数现货交易对的计价货币。',
  },
];
