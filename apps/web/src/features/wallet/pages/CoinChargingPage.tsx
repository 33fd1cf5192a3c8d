/**
 * /assets/coinCharging?coin=&chain= (spec section 2 "Deposit: choose coin and chain, address, save QR code, copy address"):
 * the coin (tap to choose another), its network (a row naming it that opens the list of the coin's networks, with
 * each one's minimum and confirmations; the choice is kept in the query), and for the chosen one the caller's address (getDepositAddress)
 * as text and QR code, Copy ('Copy failed, please retry' on failure), Save QR code (native bridge, else a PNG
 * download; refused permission: the prompt of spec section 6), the minimum deposit, "N confirmations" and the warning
 * that only this network may be used, naming it. A network
 * this deployment has no node for says so instead of an address. In the demo, "Send a test deposit" makes the dev
 * chain of the chosen network pay the address (the request names the network); the latest deposits then show their
 * network and confirmations n/N, polled every 2 s until credited.
 * No coin in the query: the coin chooser.
 */
import { useState } from 'react';
import { Button, ProgressBar } from 'antd-mobile';
import { loadFeedback } from '../../../shared/ui/feedback';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CoinChain, DepositRecord } from '@exchange/api';
import { showToast } from '../../../shared/api-client';
import { openAppSettings, saveImage } from '../../../shared/bridge';
import { formatCoin, formatDateTime } from '../../../shared/format';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { InlineLoading, LoadFailed } from '../../../shared/ui';
import { useCoinChain } from '../hooks/use-coin-chain';
import { useDepositAddress } from '../api/get-deposit-address';
import { useDemoDeposit } from '../api/demo-deposit';
import { useRecentDeposits } from '../api/get-records';
import { WalletHeader } from '../components/WalletHeader';
import { CoinPickerRow } from '../components/CoinPickerRow';
import { NetworkPicker } from '../components/NetworkPicker';
import { CopyButton } from '../components/CopyButton';
import { QrImage, useQrDataUrl } from '../../../shared/ui/QrCode';
import '../wallet.css';

/** Amount of the demo's test deposit per coin (coin units). */
export const TEST_DEPOSIT_AMOUNT: Record<string, string> = { USDT: '1000', ETH: '0.5' };

export default function CoinChargingPage() {
  const { t } = useTranslation('wallet');
  const [params] = useSearchParams();
  const coin = (params.get('coin') ?? '').toUpperCase();
  if (!coin) return <Navigate to="/assets/chooseCoin?type=coinCharging" replace />;
  return (
    <div className="wl-page">
      <WalletHeader title={t('deposit.title', { coin })} records="coinCharging" />
      <LoginFirst>
        <DepositBody coin={coin} />
      </LoginFirst>
    </div>
  );
}

function DepositBody({ coin }: { coin: string }) {
  const { t } = useTranslation('wallet');
  const { coins, info, chains, selected, setChain } = useCoinChain(coin);
  if (coins.isLoading) return <InlineLoading />;
  if (coins.isError) return <LoadFailed error={coins.error} onRetry={() => void coins.refetch()} />;
  return (
    <>
      <CoinPickerRow coin={coin} name={info?.name} type="coinCharging" />
      <NetworkPicker coin={coin} chains={chains} value={selected?.chain ?? ''} onChange={setChain} mode="deposit" />
      {!info ? (
        <p className="wl-notice">{t('deposit.unknownCoin', { coin })}</p>
      ) : !selected || !selected.available ? (
        <p className="wl-notice" role="status">
          {t('networkUnavailable')}
        </p>
      ) : !selected.depositEnabled ? (
        <p className="wl-notice" role="status">
          {t('deposit.suspended')}
        </p>
      ) : (
        <AddressCard key={selected.chain} coin={coin} chain={selected} />
      )}
    </>
  );
}

function AddressCard({ coin, chain }: { coin: string; chain: CoinChain }) {
  const { t } = useTranslation('wallet');
  const addr = useDepositAddress(coin, chain.chain, true);
  const qr = useQrDataUrl(addr.data?.address ?? '', 360);
  // After a test deposit, the latest deposits are polled for up to a minute until the watcher lists it.
  const [expectUntil, setExpectUntil] = useState(0);
  if (addr.isLoading) return <InlineLoading />;
  if (addr.isError || !addr.data) return <LoadFailed error={addr.error} onRetry={() => void addr.refetch()} compact />;
  const a = addr.data;
  const onSave = async () => {
    if (!qr) return;
    const r = await saveImage(qr, `${coin}-${chain.chain}-deposit.png`);
    if (r === 'saved') showToast(t('deposit.saved'));
    else if (r === 'failed') showToast(t('deposit.saveFailed'));
    else if (
      await (await loadFeedback()).Dialog.confirm({ content: t('deposit.permission'), confirmText: t('deposit.openSettings'), cancelText: t('common:cancel') })
    )
      openAppSettings();
  };
  return (
    <>
      <section className="wl-card wl-address-card" aria-label={t('deposit.address')}>
        <QrImage className="wl-qr" url={qr} size={180} label={t('deposit.qrAlt', { coin, chain: chain.chainName })} />
        <div className="wl-label">{t('deposit.address')}</div>
        <div className="wl-address" data-testid="deposit-address">
          {a.address}
        </div>
        <div className="wl-actions-row">
          <CopyButton text={a.address} label={t('deposit.copyAddress')} className="wl-btn-secondary" />
          <button type="button" className="wl-btn-secondary" onClick={() => void onSave()} disabled={!qr}>
            {t('deposit.saveQr')}
          </button>
        </div>
      </section>
      <dl className="wl-facts">
        <div>
          <dt>{t('deposit.minimum')}</dt>
          <dd>
            {a.minDeposit} {coin}
          </dd>
        </div>
        <div>
          <dt>{t('deposit.arrival')}</dt>
          <dd>{t('deposit.confirmations', { n: a.confirmations })}</dd>
        </div>
        {chain.contract && (
          <div>
            <dt>{t('deposit.contract')}</dt>
            <dd className="wl-mono">{`${chain.contract.slice(0, 8)}…${chain.contract.slice(-6)}`}</dd>
          </div>
        )}
      </dl>
      <p className="wl-warn wl-warn-net" role="note">
        {t('deposit.warning', { coin, chain: chain.chainName, min: a.minDeposit })}
      </p>
      {a.demoDeposit && <TestDeposit coin={coin} chain={chain.chain} onSent={() => setExpectUntil(Date.now() + 60_000)} />}
      <RecentDeposits coin={coin} expecting={expectUntil > Date.now()} />
    </>
  );
}

/** The demo's "Send a test deposit" (DepositAddress.demoDeposit). */
function TestDeposit({ coin, chain, onSent }: { coin: string; chain: string; onSent: () => void }) {
  const { t } = useTranslation('wallet');
  const send = useDemoDeposit();
  const amount = TEST_DEPOSIT_AMOUNT[coin] ?? '1';
  return (
    <div className="wl-demo">
      <Button
        block
        color="primary"
        fill="outline"
        loading={send.isPending}
        onClick={() =>
          send.mutate(
            { coin, chain, amount },
            {
              onSuccess: () => {
                showToast(t('deposit.testSent'));
                onSent();
              },
            },
          )
        }
      >
        {t('deposit.sendTest', { amount, coin })}
      </Button>
      <p className="wl-hint">{t('deposit.testHint')}</p>
    </div>
  );
}

/** The latest deposits of the coin: confirmations n/N while waiting (polled every 2 s), then credited. */
function RecentDeposits({ coin, expecting }: { coin: string; expecting: boolean }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const q = useRecentDeposits(coin, expecting, true);
  const list = q.data?.deposits ?? [];
  if (list.length === 0) return null;
  return (
    <section className="wl-card" aria-label={t('deposit.recent')}>
      <div className="wl-card-title">{t('deposit.recent')}</div>
      <ul className="wl-recent">
        {list.slice(0, 3).map((d) => (
          <li key={d.id}>
            <button type="button" className="wl-recent-item" onClick={() => navigate(`/assets/capitalRecordsDetail?type=coinCharging&id=${d.id}`)}>
              <DepositLine d={d} />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One deposit: amount, its network (code), state, confirmations n/N with a bar while confirming, time. */
export function DepositLine({ d }: { d: DepositRecord }) {
  const { t } = useTranslation('wallet');
  const n = Math.min(d.confirmations, d.confirmationsRequired);
  return (
    <>
      <span className="wl-recent-top">
        <span className="wl-amount-net">
          <span className="wl-amount">
            +{formatCoin(d.amount, d.coin, { exact: true })} {d.coin}
          </span>
          <span className="wl-tag wl-net-code">{d.chain}</span>
        </span>
        <span className={`wl-state wl-state-${d.status.toLowerCase()}`}>{t(`depositStatus.${d.status}`)}</span>
      </span>
      {d.status === 'CONFIRMING' && (
        <span className="wl-confirm">
          <ProgressBar percent={d.confirmationsRequired ? (100 * n) / d.confirmationsRequired : 0} />
          <span>{t('confirmationsOf', { n, total: d.confirmationsRequired })}</span>
        </span>
      )}
      <span className="wl-time">{formatDateTime(d.createdAt)}</span>
    </>
  );
}
