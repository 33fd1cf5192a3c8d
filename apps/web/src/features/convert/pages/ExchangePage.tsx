/**
 * /exchange: convert one coin to another at the order book's price. The user picks the coin to pay and
 * the coin to receive (those joined by a spot market), enters the amount (from the SPOT account; "Max" fills the
 * available balance), and asks for a quote: the amount received with the taker fee taken off, the rate and the fee
 * are guaranteed for 10 seconds (a countdown); "Convert" executes it as a market order that must give at least that
 * amount, else nothing changes and the user is told why (price moved, quote expired) and may ask again.
 * Under the amount the page shows the least amount the market's order filters take in the coin paid (the pairs'
 * minQuote from the quote coin, minBase from the base coin), before any quote; an amount below it is not sent.
 */
import { useEffect, useMemo, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import type { ConvertPairs, ConvertQuote, ConvertResult } from '@exchange/api';
import { isApiError, showToast } from '../../../shared/api-client';
import { compareDecimal, formatCoin, isDecimal, trimZeros } from '../../../shared/format';
import { useRequireLogin } from '../../../shared/guards';
import { useAppStore } from '../../../shared/storage';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { useConvertActions } from '../api/convert-actions';
import { spotAvailable, useBalances } from '../api/get-balances';
import { useConvertPairs } from '../api/get-pairs';
import '../convert.css';

/** Seconds left until `expiresAt` (Unix ms), ticking every 250 ms; 0 once passed. */
function useSecondsLeft(expiresAt: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    const id = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(id);
  }, [expiresAt]);
  return expiresAt === null ? 0 : Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/**
 * The least amount of `from` a convert on `pair` takes (decimal string), or '' when there is none to show: no pair,
 * no bids to sell the base coin into, or a zero minimum.
 */
function minimumOf(pair: ConvertPairs['pairs'][number] | undefined, from: string): string {
  if (!pair) return '';
  const min = from === pair.quote ? pair.minQuote : from === pair.base ? pair.minBase : '';
  return min !== '' && compareDecimal(min, '0') > 0 ? min : '';
}

/** No pairs yet: one array for every render, so the targets below are not recomputed while the pairs load. */
const NO_PAIRS: ConvertPairs['pairs'] = [];

/** The convert page. */
export default function ExchangePage() {
  const { t } = useTranslation('convert');
  const pairs = useConvertPairs();
  const isLogin = useAppStore((s) => s.isLogin);
  const balances = useBalances();
  const requireLogin = useRequireLogin();
  const { quote, confirm } = useConvertActions();
  const [from, setFrom] = useState('USDT');
  const [to, setTo] = useState('BTC');
  const [amount, setAmount] = useState('');
  const [q, setQ] = useState<ConvertQuote | null>(null);
  const [done, setDone] = useState<ConvertResult | null>(null);
  // The server's clock decides expiry; the countdown is the local view of the same 10 seconds from the answer's arrival.
  const [deadline, setDeadline] = useState<number | null>(null);
  const left = useSecondsLeft(deadline);

  const list = pairs.data?.pairs ?? NO_PAIRS;
  const coins = pairs.data?.coins ?? [];
  const targets = useMemo(() => list.flatMap((p) => (p.quote === from ? [p.base] : p.base === from ? [p.quote] : [])), [list, from]);
  const pair = list.find((p) => (p.base === from && p.quote === to) || (p.base === to && p.quote === from));
  useEffect(() => {
    if (targets.length > 0 && !targets.includes(to)) setTo(targets[0]!);
  }, [targets, to]);
  const available = spotAvailable(balances.data, from);
  // The least amount of `from` the order takes ('' when unknown: no bids to sell into, or no minimum).
  const minimum = minimumOf(pair, from);
  const valid = isDecimal(amount) && compareDecimal(amount, '0') > 0;
  const belowMin = valid && minimum !== '' && compareDecimal(amount, minimum) < 0;
  const tooMuch = valid && isLogin && compareDecimal(amount, available) > 0;
  const reset = () => {
    setQ(null);
    setDeadline(null);
  };

  const ask = () => {
    if (!requireLogin()) return;
    setDone(null);
    quote.mutate(
      { from, to, amount },
      {
        onSuccess: (r) => {
          setQ(r);
          setDeadline(Date.now() + 10_000);
        },
      },
    );
  };
  const run = () => {
    if (!q) return;
    confirm.mutate(q.quoteId, {
      onSuccess: (r) => {
        setDone(r);
        reset();
        setAmount('');
        showToast(t('done', { v: formatCoin(r.received, r.to, { exact: true }), coin: r.to }), 2000);
      },
      onError: (e) => {
        if (isApiError(e, 'convert_slippage') || isApiError(e, 'convert_quote_expired')) reset();
      },
    });
  };

  if (pairs.isLoading) return <InlineLoading />;
  if (pairs.isError) return <LoadFailed error={pairs.error} onRetry={() => void pairs.refetch()} />;
  return (
    <div className="cv-page">
      <PageHeader title={t('title')} fallback="/assets" />
      <section className="cv-card">
        <div className="cv-label">
          <span>{t('from')}</span>
          {isLogin && (
            <span>
              {t('available')}: <span className="num">{formatCoin(available, from, { exact: true })}</span> {from}
            </span>
          )}
        </div>
        <div className="cv-row">
          <input
            inputMode="decimal"
            aria-label={t('amount')}
            placeholder={t('amountPlaceholder')}
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value.trim());
              reset();
            }}
          />
          {isLogin && (
            <button type="button" className="cv-max" onClick={() => (setAmount(trimZeros(available)), reset())}>
              {t('max')}
            </button>
          )}
          <select
            aria-label={t('fromCoin')}
            value={from}
            onChange={(e) => {
              setFrom(e.target.value);
              reset();
            }}
          >
            {coins.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className="cv-swap"
          aria-label={t('swap')}
          onClick={() => {
            setFrom(to);
            setTo(from);
            reset();
          }}
        >
          ⇅
        </button>
        <div className="cv-label">
          <span>{t('to')}</span>
        </div>
        <div className="cv-row">
          <div className="cv-receive num" style={{ flex: 1 }} data-testid="receive">
            {q ? formatCoin(q.receive, q.to, { exact: true }) : '--'}
          </div>
          <select
            aria-label={t('toCoin')}
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              reset();
            }}
          >
            {targets.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        {minimum !== '' && (
          <p className={belowMin ? 'cv-min cv-min-below' : 'cv-min'} data-testid="minimum">
            {t('minimum', { v: formatCoin(minimum, from, { exact: true }), coin: from })}
          </p>
        )}
        {tooMuch && (
          <p className="en-warn" style={{ color: 'var(--ex-red)', fontSize: 12 }}>
            {t('notEnough')}
          </p>
        )}
        {q && (
          <dl className="cv-kv" aria-label={t('quote')}>
            <dt>{t('spend')}</dt>
            <dd className="num" data-testid="spend">
              {formatCoin(q.spend, q.from, { exact: true })} {q.from}
            </dd>
            <dt>{t('rate')}</dt>
            <dd className="num">
              1 {q.from} ≈ {formatCoin(q.price, q.to, { exact: true })} {q.to}
            </dd>
            <dt>{t('fee', { rate: q.feeRate })}</dt>
            <dd className="num">
              {formatCoin(q.fee, q.to, { exact: true })} {q.to}
            </dd>
            <dt>{t('guaranteed')}</dt>
            <dd className="num">
              {formatCoin(q.receive, q.to, { exact: true })} {q.to}
            </dd>
          </dl>
        )}
        {q && <p className="cv-count">{left > 0 ? t('validFor', { n: left }) : t('expired')}</p>}
        {q && left > 0 ? (
          <Button block color="primary" loading={confirm.isPending} onClick={run}>
            {t('convert')}
          </Button>
        ) : (
          <Button block color="primary" disabled={!valid || tooMuch || belowMin || !pair} loading={quote.isPending} onClick={ask}>
            {q ? t('refresh') : t('preview')}
          </Button>
        )}
        {done && (
          <p className="cv-done" role="status">
            {t('result', {
              spent: formatCoin(done.spent, done.from, { exact: true }),
              from: done.from,
              got: formatCoin(done.received, done.to, { exact: true }),
              to: done.to,
              fee: formatCoin(done.fee, done.to, { exact: true }),
            })}
          </p>
        )}
      </section>
      <p className="cv-note">{t('note', { rate: pair?.feeRate ?? '--' })}</p>
    </div>
  );
}
