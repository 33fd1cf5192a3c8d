/**
 * One capital record in full (capital records detail, withdrawal success): amount and state, then per type the
 * network, addresses, tx hash (copy; a link to the block explorer when one is configured), confirmations n/N, fee and
 * receive amount, times, and for deposits and withdrawals the status timeline (a rejection with its reason). A
 * withdrawal still under review can be cancelled here.
 */
import type { ReactNode } from 'react';
import { Button } from 'antd-mobile';
import { loadFeedback } from '../../../shared/ui/feedback';
import { useTranslation } from 'react-i18next';
import type { DepositRecord, RecordDetail, TransferRecord, WithdrawRecord } from '@exchange/api';
import { formatCoin, formatDateTime } from '../../../shared/format';
import { useCancelWithdraw } from '../api/cancel-withdraw';
import { useChainName } from '../hooks/use-chain-name';
import { CopyButton } from './CopyButton';
import { StatusTimeline } from './StatusTimeline';

/** Shortens a hash or address for a line: first 10 and last 8 characters. */
export function shortHash(h: string): string {
  return h.length > 22 ? `${h.slice(0, 10)}…${h.slice(-8)}` : h;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A hash or address with copy, and its explorer link when given. */
function HashRow({ label, value, href }: { label: string; value: string; href?: string }) {
  const { t } = useTranslation('wallet');
  if (!value) return <Row label={label}>--</Row>;
  return (
    <Row label={label}>
      <span className="wl-hash">
        {href ? (
          <a className="wl-link wl-mono" href={href} target="_blank" rel="noreferrer noopener" aria-label={t('detail.explorer')}>
            {shortHash(value)}
          </a>
        ) : (
          <span className="wl-mono">{shortHash(value)}</span>
        )}
        <CopyButton text={value} label={t('detail.copyOf', { what: label })} />
      </span>
    </Row>
  );
}

/** The network of a deposit or withdrawal: its name ("BNB Smart Chain (BEP20)") and code ("BSC"). */
function NetworkRow({ coin, chain }: { coin: string; chain: string }) {
  const { t } = useTranslation('wallet');
  const name = useChainName(coin, chain);
  return (
    <Row label={t('network')}>
      <span data-testid="record-network">{name}</span>
      {name !== chain && <span className="wl-tag wl-net-code">{chain}</span>}
    </Row>
  );
}

/** The detail of `d`. */
export function RecordDetailView({ d }: { d: RecordDetail }) {
  if (d.deposit) return <DepositDetail r={d.deposit} />;
  if (d.withdrawal) return <WithdrawDetail r={d.withdrawal} />;
  if (d.transfer) return <TransferDetail r={d.transfer} />;
  return null;
}

function Head({ amount, coin, state, tone }: { amount: string; coin: string; state: string; tone: string }) {
  return (
    <div className="wl-detail-head">
      <div className="wl-detail-amount">
        {amount} <span className="wl-detail-coin">{coin}</span>
      </div>
      <div className={`wl-state wl-state-${tone}`}>{state}</div>
    </div>
  );
}

function DepositDetail({ r }: { r: DepositRecord }) {
  const { t } = useTranslation('wallet');
  const n = Math.min(r.confirmations, r.confirmationsRequired);
  const confirmations = t('confirmationsOf', { n, total: r.confirmationsRequired });
  return (
    <>
      <Head amount={`+${formatCoin(r.amount, r.coin, { exact: true })}`} coin={r.coin} state={t(`depositStatus.${r.status}`)} tone={r.status.toLowerCase()} />
      <dl className="wl-facts">
        <NetworkRow coin={r.coin} chain={r.chain} />
        <Row label={t('detail.confirmations')}>{confirmations}</Row>
        <HashRow label={t('detail.txHash')} value={r.txHash} href={r.explorerUrl || undefined} />
        <HashRow label={t('detail.from')} value={r.fromAddress} />
        <HashRow label={t('detail.to')} value={r.address} />
        <Row label={t('detail.block')}>{r.blockNumber || '--'}</Row>
        <Row label={t('detail.time')}>{formatDateTime(r.createdAt)}</Row>
        {r.creditedAt > 0 && <Row label={t('detail.creditedAt')}>{formatDateTime(r.creditedAt)}</Row>}
      </dl>
      <section className="wl-card">
        <StatusTimeline kind="deposit" status={r.status} confirmations={confirmations} />
      </section>
    </>
  );
}

function WithdrawDetail({ r }: { r: WithdrawRecord }) {
  const { t } = useTranslation('wallet');
  const cancel = useCancelWithdraw();
  const n = Math.min(r.confirmations, r.confirmationsRequired);
  const confirmations = t('confirmationsOf', { n, total: r.confirmationsRequired });
  const tone = r.status === 'COMPLETED' ? 'credited' : r.status === 'REJECTED' || r.status === 'FAILED' ? 'failed' : 'confirming';
  return (
    <>
      <Head amount={`-${formatCoin(r.amount, r.coin, { exact: true })}`} coin={r.coin} state={t(`withdrawStatus.${r.status}`)} tone={tone} />
      <dl className="wl-facts">
        <NetworkRow coin={r.coin} chain={r.chain} />
        <HashRow label={t('detail.to')} value={r.address} />
        <Row label={t('withdraw.fee')}>
          {formatCoin(r.fee, r.coin, { exact: true })} {r.coin}
        </Row>
        <Row label={t('detail.receive')}>
          {formatCoin(r.receive, r.coin, { exact: true })} {r.coin}
        </Row>
        <HashRow label={t('detail.txHash')} value={r.txHash} href={r.explorerUrl || undefined} />
        {(r.status === 'CONFIRMING' || r.status === 'COMPLETED') && <Row label={t('detail.confirmations')}>{confirmations}</Row>}
        <Row label={t('detail.time')}>{formatDateTime(r.createdAt)}</Row>
        <Row label={t('detail.updatedAt')}>{formatDateTime(r.updatedAt)}</Row>
      </dl>
      <section className="wl-card">
        <StatusTimeline kind="withdrawal" status={r.status} reason={r.reason} confirmations={confirmations} />
      </section>
      {r.status === 'REVIEW' && (
        <div className="wl-form">
          <Button
            block
            fill="outline"
            loading={cancel.isPending}
            onClick={() =>
              void loadFeedback().then(({ Dialog }) =>
                Dialog.confirm({ content: t('detail.cancelConfirm'), confirmText: t('detail.cancelOk'), cancelText: t('common:cancel') }).then(
                  (ok) => ok && cancel.mutate(r.id),
                ),
              )
            }
          >
            {t('detail.cancel')}
          </Button>
        </div>
      )}
    </>
  );
}

function TransferDetail({ r }: { r: TransferRecord }) {
  const { t } = useTranslation('wallet');
  return (
    <>
      <Head amount={formatCoin(r.amount, r.coin, { exact: true })} coin={r.coin} state={t('transferDone')} tone="credited" />
      <dl className="wl-facts">
        <Row label={t('transfer.from')}>{t(`account.${r.from}`)}</Row>
        <Row label={t('transfer.to')}>{t(`account.${r.to}`)}</Row>
        <Row label={t('transfer.fee')}>{t('transfer.free')}</Row>
        <Row label={t('detail.time')}>{formatDateTime(r.createdAt)}</Row>
        <Row label={t('detail.id')}>{r.id}</Row>
      </dl>
    </>
  );
}
