/**
 * /mortgage (spec section 2 "mortgage and redeem"): fixed-term savings, as Binance Simple Earn's locked
 * products. The products an operator defined in the console (coin, term, annual rate, limits, remaining quota, whether
 * an early redemption is allowed and at what cost); "Lock" opens a sheet with the amount (from the ASSETS account,
 * "Max" fills the available balance), the interest estimate by the server's formula (lib/interest.ts) and the
 * early-redemption rule, then locks (a client id makes a retry safe) and opens the records (/mort_record).
 */
import { useMemo, useState } from 'react';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EarnProduct } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { compareDecimal, formatCoin, isDecimal, trimZeros } from '../../../shared/format';
import { useRequireLogin } from '../../../shared/guards';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useEarnActions } from '../api/earn-actions';
import { availableOf, useBalances } from '../api/get-balances';
import { useEarnProducts } from '../api/get-products';
import { estimateInterest, formatApr } from '../lib/interest';
import '../earn.css';

/** The savings products page. */
export default function MortgagePage() {
  const { t } = useTranslation('earn');
  const navigate = useNavigate();
  const q = useEarnProducts();
  const requireLogin = useRequireLogin();
  const [open, setOpen] = useState<EarnProduct | null>(null);
  return (
    <div className="en-page">
      <PageHeader title={t('title')} fallback="/assets" />
      <p className="en-intro">{t('intro')}</p>
      <div className="en-links">
        <button type="button" onClick={() => navigate('/mort_record')}>
          {t('records.locks')}
        </button>
        <button type="button" onClick={() => navigate('/redeem_record')}>
          {t('records.redemptions')}
        </button>
      </div>
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data ?? []).length === 0 ? (
        <EmptyState text={t('noProducts')} />
      ) : (
        <ul aria-label={t('products')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {(q.data ?? []).map((p) => (
            <li key={p.productId} className="en-card" aria-label={t('productName', { coin: p.coin, days: p.termDays })}>
              <div className="en-card-head">
                <div>
                  <div className="en-coin">{p.coin}</div>
                  <div className="en-term">{t('termDays', { n: p.termDays })}</div>
                </div>
                <div style={{ textAlign: 'right' }}>
                  <div className="en-apr num">{formatApr(p.apr)}</div>
                  <div className="en-apr-label">{t('apr')}</div>
                </div>
              </div>
              <dl className="en-kv">
                <dt>{t('limits')}</dt>
                <dd className="num">
                  {formatCoin(p.minAmount, p.coin, { exact: true })} - {formatCoin(p.maxAmount, p.coin, { exact: true })} {p.coin}
                </dd>
                <dt>{t('remaining')}</dt>
                <dd className="num">
                  {formatCoin(p.remainingQuota, p.coin, { exact: true })} {p.coin}
                </dd>
                <dt>{t('early')}</dt>
                <dd>
                  <span className={`en-tag ${p.earlyRedeem === 'FORFEIT_INTEREST' ? 'ok' : 'no'}`}>{t(`earlyRule.${p.earlyRedeem}`)}</span>
                </dd>
              </dl>
              <Button
                block
                color="primary"
                size="small"
                onClick={() => {
                  if (requireLogin()) setOpen(p);
                }}
              >
                {t('lock')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <section className="en-card">
        <h2 style={{ margin: '0 0 6px', fontSize: 14 }}>{t('rulesTitle')}</h2>
        <ul style={{ margin: 0, paddingLeft: 18, fontSize: 12, lineHeight: 1.6, color: 'var(--ex-text-2)' }}>
          <li>{t('rule1')}</li>
          <li>{t('rule2')}</li>
          <li>{t('rule3')}</li>
        </ul>
      </section>
      <Popup visible={open !== null} onMaskClick={() => setOpen(null)} bodyStyle={{ borderRadius: '12px 12px 0 0', background: 'var(--ex-card)' }}>
        {open && <LockSheet product={open} onDone={() => setOpen(null)} />}
      </Popup>
    </div>
  );
}

function LockSheet({ product: p, onDone }: { product: EarnProduct; onDone: () => void }) {
  const { t } = useTranslation('earn');
  const navigate = useNavigate();
  const balances = useBalances();
  const { lock } = useEarnActions();
  const [amount, setAmount] = useState('');
  const clientId = useMemo(() => `lk${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, []);
  const available = availableOf(balances.data, 'ASSETS', p.coin);
  const valid = isDecimal(amount) && compareDecimal(amount, '0') > 0;
  const problem = !valid
    ? ''
    : compareDecimal(amount, p.minAmount) < 0 || compareDecimal(amount, p.maxAmount) > 0
      ? t('outOfLimits', { min: formatCoin(p.minAmount, p.coin, { exact: true }), max: formatCoin(p.maxAmount, p.coin, { exact: true }), coin: p.coin })
      : compareDecimal(amount, available) > 0
        ? t('notEnough')
        : '';
  const interest = valid ? estimateInterest(amount, p.apr, p.termDays) : '';
  const submit = () =>
    lock.mutate(
      { productId: p.productId, amount, clientId },
      {
        onSuccess: () => {
          showToast(t('locked'));
          onDone();
          navigate('/mort_record');
        },
      },
    );
  return (
    <div className="en-sheet" role="dialog" aria-label={t('lockTitle', { coin: p.coin })}>
      <h2>{t('lockTitle', { coin: p.coin })}</h2>
      <div className="en-field">
        <input
          inputMode="decimal"
          aria-label={t('amount')}
          placeholder={t('amountPlaceholder', { min: trimZeros(p.minAmount) })}
          value={amount}
          onChange={(e) => setAmount(e.target.value.trim())}
        />
        <span>{p.coin}</span>
        <button type="button" onClick={() => setAmount(trimZeros(compareDecimal(available, p.maxAmount) > 0 ? p.maxAmount : available))}>
          {t('max')}
        </button>
      </div>
      <p className="en-hint">
        {t('available')}: <span className="num">{formatCoin(available, p.coin, { exact: true })}</span> {p.coin} ({t('fromAssets')})
      </p>
      <dl className="en-kv">
        <dt>{t('apr')}</dt>
        <dd className="num">{formatApr(p.apr)}</dd>
        <dt>{t('term')}</dt>
        <dd>{t('termDays', { n: p.termDays })}</dd>
        <dt>{t('expected')}</dt>
        <dd className="num" data-testid="expected-interest">
          {interest === '' ? '--' : `${formatCoin(interest, p.coin, { exact: true })} ${p.coin}`}
        </dd>
        <dt>{t('early')}</dt>
        <dd>{t(`earlyRule.${p.earlyRedeem}`)}</dd>
      </dl>
      {problem && <p className="en-warn">{problem}</p>}
      <Button block color="primary" disabled={!valid || problem !== ''} loading={lock.isPending} onClick={submit}>
        {t('confirmLock')}
      </Button>
    </div>
  );
}
