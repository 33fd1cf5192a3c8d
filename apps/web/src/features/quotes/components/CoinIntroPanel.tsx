/**
 * Coin introduction (spec section 1): issue time, total and circulating supply, crowdfunding price,
 * white paper, website and block explorer links, and the introduction text in the user's language.
 */
import type { CoinIntro } from '@exchange/api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The introduction panel. */
export function CoinIntroPanel({ coin }: { coin: CoinIntro }) {
  const { t } = useTranslation('quotes');
  const link = (url: string) =>
    url && /^https?:\/\//.test(url) ? (
      <a href={url} target="_blank" rel="noopener noreferrer">
        {url.replace(/^https?:\/\//, '').replace(/\/$/, '')}
      </a>
    ) : (
      '--'
    );
  const rows: [string, ReactNode][] = [
    [t('intro.issueTime'), coin.issueTime || '--'],
    [t('intro.totalSupply'), coin.totalSupply || '--'],
    [t('intro.circulatingSupply'), coin.circulatingSupply || '--'],
    [t('intro.crowdfundingPrice'), coin.crowdfundingPrice || '--'],
    [t('intro.whitePaper'), link(coin.whitePaper)],
    [t('intro.website'), link(coin.website)],
    [t('intro.blockExplorer'), link(coin.blockExplorer)],
  ];
  return (
    <section className="qt-intro">
      <h2 className="qt-intro-title">
        {coin.tokenCur} <span className="text-2">{coin.fullName}</span>
      </h2>
      <dl className="qt-intro-list">
        {rows.map(([k, v]) => (
          <div key={k} className="qt-intro-row">
            <dt>{k}</dt>
            <dd className="num">{v}</dd>
          </div>
        ))}
      </dl>
      <h3 className="qt-intro-sub">{t('intro.about', { coin: coin.tokenCur })}</h3>
      <p className="qt-intro-text">{coin.introduction}</p>
    </section>
  );
}
