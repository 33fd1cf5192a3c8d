/**
 * /reserves (proof of reserves; public): the latest published snapshot (root hash, time, users), per asset
 * the users' liabilities, the exchange's on-chain reserves and the ratio, with the reserves on each network that carries
 * the coin under its total (USDT on Ethereum, BNB Smart Chain, Arbitrum One and Polygon); and "Verify my balances" (logged in): the
 * user's proof is downloaded and checked HERE, in the browser, with packages/core's Merkle-sum verifyProof against the
 * published root (lib/verify.ts), showing the result, the user's balances and the path; "Download proof (JSON)" saves
 * both for checking by hand (docs/proof-of-reserves.md). What it proves and what not is said on the page.
 */
import { Fragment, useMemo } from 'react';
import Button from 'antd-mobile/es/components/button';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ReservesProof, ReservesRoot } from '@exchange/api';
import { isApiError } from '../../../shared/api-client';
import { formatCoin, formatRatioPercent } from '../../../shared/format';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { useMyProof } from '../api/get-my-proof';
import { useReservesRoot } from '../api/get-root';
import { proofFile, toUnits, unitsToDecimal, verifyAgainstRoot } from '../lib/verify';
import '../reserves.css';

/** Local "YYYY-MM-DD HH:mm" of a Unix ms time. */
function formatTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** Saves a text file (the browser's download; a native shell's web view handles the same anchor). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The proof-of-reserves page. */
export default function ReservesPage() {
  const { t } = useTranslation('reserves');
  const q = useReservesRoot();
  return (
    <div className="rs-page">
      <PageHeader title={t('title')} fallback="/assets" />
      <p className="rs-intro">{t('intro')}</p>
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <EmptyState text={t('none')} />
      ) : (
        <>
          <RootCard root={q.data} />
          <Verify root={q.data} />
        </>
      )}
      <section className="rs-card rs-limits">
        <h2>{t('limitsTitle')}</h2>
        <ul>
          <li>{t('limit1')}</li>
          <li>{t('limit2')}</li>
          <li>{t('limit3')}</li>
        </ul>
      </section>
    </div>
  );
}

function RootCard({ root }: { root: ReservesRoot }) {
  const { t } = useTranslation('reserves');
  const rows = root.totals.filter((x) => !/^0(\.0*)?$/.test(x.liabilities) || x.reserves !== '');
  return (
    <section className="rs-card" aria-label={t('snapshot')}>
      <dl className="rs-kv">
        <dt>{t('snapshotTime')}</dt>
        <dd>{formatTime(root.createdAt)}</dd>
        <dt>{t('users')}</dt>
        <dd className="num">{root.leafCount}</dd>
        <dt>{t('rootHash')}</dt>
        <dd className="rs-hash" data-testid="root-hash">
          {root.rootHash}
        </dd>
      </dl>
      <table className="rs-table">
        <thead>
          <tr>
            <th>{t('coin')}</th>
            <th>{t('liabilities')}</th>
            <th>{t('reserves')}</th>
            <th>{t('ratio')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((x) => (
            <Fragment key={x.coin}>
              <tr>
                <td>{x.coin}</td>
                <td className="num">{formatCoin(x.liabilities, x.coin, { exact: true })}</td>
                <td className="num">
                  {x.reserves === '' ? <span className="rs-muted">{t('noChain')}</span> : formatCoin(x.reserves, x.coin, { exact: true })}
                </td>
                <td className="num">
                  {x.ratio === '' ? '--' : <span className={(toUnits(x.ratio, 4) ?? 0n) >= 10_000n ? 'rs-ok' : 'rs-bad'}>{formatRatioPercent(x.ratio)}</span>}
                </td>
              </tr>
              {(x.networks ?? []).map((n) => {
                const network = t(`networkName.${n.chain}`, { defaultValue: n.chain });
                return (
                  <tr key={n.chain} className="rs-net" aria-label={t('onNetwork', { coin: x.coin, network })}>
                    <td colSpan={2}>{network}</td>
                    <td className="num">{formatCoin(n.reserves, x.coin, { exact: true })}</td>
                    <td />
                  </tr>
                );
              })}
            </Fragment>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Verify({ root }: { root: ReservesRoot }) {
  const { t } = useTranslation('reserves');
  const navigate = useNavigate();
  const isLogin = useAppStore((s) => s.isLogin);
  const m = useMyProof();
  const proof: ReservesProof | undefined = m.data;
  const result = useMemo(() => (proof ? verifyAgainstRoot(proof, root) : null), [proof, root]);
  return (
    <section className="rs-card" aria-label={t('verifyTitle')}>
      <h2>{t('verifyTitle')}</h2>
      <p className="rs-muted">{t('verifyHint')}</p>
      {!isLogin ? (
        <Button block color="primary" onClick={() => navigate(`/login?redirect=${encodeURIComponent('/reserves')}`)}>
          {t('loginToVerify')}
        </Button>
      ) : (
        <Button block color="primary" loading={m.isPending} onClick={() => m.mutate()}>
          {t('verify')}
        </Button>
      )}
      {m.isError && (
        <p className="rs-bad" role="alert">
          {isApiError(m.error, 'reserves_not_included') ? t('notIncluded') : m.error.message}
        </p>
      )}
      {proof && result && (
        <div className="rs-result">
          <p className={result.ok ? 'rs-ok rs-verdict' : 'rs-bad rs-verdict'} role="status">
            {result.ok ? t('verified') : t(`failed.${result.reason}`)}
          </p>
          <h3>{t('myBalances')}</h3>
          <ul className="rs-balances">
            {proof.assets.map((coin, i) =>
              proof.balances[i] === '0' ? null : (
                <li key={coin}>
                  <span>{coin}</span>
                  <span className="num">{unitsToDecimal(proof.balances[i]!, proof.scales[i]!)}</span>
                </li>
              ),
            )}
          </ul>
          <dl className="rs-kv">
            <dt>{t('leafIndex')}</dt>
            <dd className="num">{proof.leafIndex}</dd>
            <dt>{t('salt')}</dt>
            <dd className="rs-hash">{proof.salt}</dd>
          </dl>
          <h3>{t('path', { count: proof.path.length })}</h3>
          <ol className="rs-path">
            {proof.path.map((s, i) => (
              <li key={i}>
                <span className="rs-side">{t(s.side === 'L' ? 'sideL' : 'sideR')}</span>
                <span className="rs-hash">{s.hash}</span>
              </li>
            ))}
          </ol>
          <Button
            block
            onClick={() => {
              const f = proofFile(proof, root);
              download(f.name, f.text);
            }}
          >
            {t('download')}
          </Button>
        </div>
      )}
    </section>
  );
}
