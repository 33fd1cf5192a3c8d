/**
 * The lists of the invitation page: my invitees (masked account, rebate earned, registration time: spec section 3),
 * my rebates per settled day, the monthly ranking (this month from its 1st, last month's final list) and the
 * all-time leaderboard. Each is paged or bounded by the server; amounts are USDT decimal strings.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RankingEntry, RankingList } from '@exchange/api';
import { formatCoin, formatDateTime } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { INVITE_PAGE_SIZE, useInvitees } from '../api/get-invitees';
import { useLeaderboard } from '../api/get-leaderboard';
import { useRanking } from '../api/get-ranking';
import { useRebateDays } from '../api/get-rebates';

/** A USDT amount as the lists show it: up to 8 decimals, at least 2. */
export function usdt(v: string): string {
  return formatCoin(v, 'USDT', { exact: true });
}

function Pager({ page, total, onPage }: { page: number; total: number; onPage: (p: number) => void }) {
  const { t } = useTranslation('invite');
  const pages = Math.max(1, Math.ceil(total / INVITE_PAGE_SIZE));
  if (pages <= 1) return null;
  return (
    <div className="iv-pager">
      <button type="button" className="iv-btn iv-btn-ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('prev')}
      </button>
      <span>
        {page} / {pages}
      </span>
      <button type="button" className="iv-btn iv-btn-ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </button>
    </div>
  );
}

/** My invitees. */
export function InviteesList() {
  const { t } = useTranslation('invite');
  const [page, setPage] = useState(1);
  const q = useInvitees(page);
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const d = q.data!;
  if (d.total === 0) return <EmptyState text={t('invitees.empty')} />;
  return (
    <>
      <table className="iv-table" aria-label={t('tabs.invitees')}>
        <thead>
          <tr>
            <th>{t('invitees.account')}</th>
            <th className="iv-num">{t('invitees.rebate')}</th>
            <th className="iv-num">{t('invitees.time')}</th>
          </tr>
        </thead>
        <tbody>
          {d.records.map((r, i) => (
            <tr key={`${r.account}-${r.registeredAt}-${i}`}>
              <td>{r.account}</td>
              <td className="iv-num">{usdt(r.rebate)}</td>
              <td className="iv-num iv-muted">{formatDateTime(r.registeredAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} total={d.total} onPage={setPage} />
    </>
  );
}

/** My rebates per settled day. */
export function RebatesList() {
  const { t } = useTranslation('invite');
  const [page, setPage] = useState(1);
  const q = useRebateDays(page);
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const d = q.data!;
  if (d.total === 0) return <EmptyState text={t('rebates.empty')} />;
  return (
    <>
      <ul className="iv-days" aria-label={t('tabs.rebates')}>
        {d.records.map((r) => (
          <li key={r.day} className="iv-day">
            <div className="iv-day-head">
              <span className="iv-day-date">{r.day}</span>
              <span className="iv-day-paid">+{usdt(r.paid)} USDT</span>
            </div>
            <div className="iv-day-row">
              <span>{t('rebates.fee')}</span>
              <span>{usdt(r.fee)} USDT</span>
            </div>
            <div className="iv-day-row">
              <span>{t('rebates.rebate')}</span>
              <span>{usdt(r.rebate)} USDT</span>
            </div>
            <div className="iv-day-row">
              <span>{t('rebates.invitees')}</span>
              <span>{r.invitees}</span>
            </div>
            {r.paid !== r.rebate && <div className="iv-day-note">{t('rebates.belowThreshold')}</div>}
          </li>
        ))}
      </ul>
      <Pager page={page} total={d.total} onPage={setPage} />
    </>
  );
}

function RankRows({ list, kind }: { list: RankingList; kind: 'ranking' | 'leaderboard' }) {
  const { t } = useTranslation('invite');
  const row = (r: RankingEntry, mine = false) => (
    <tr key={mine ? 'mine' : r.rank} className={r.me ? 'iv-me' : undefined}>
      <td className="iv-rank">{r.rank > 0 ? r.rank : '--'}</td>
      <td>
        {r.account}
        {r.me && <span className="iv-me-tag">{t('ranking.me')}</span>}
      </td>
      <td className="iv-num">{r.invitees}</td>
      <td className="iv-num">{usdt(r.rebate)}</td>
    </tr>
  );
  return (
    <>
      {list.records.length === 0 ? (
        <EmptyState text={t(kind === 'ranking' ? 'ranking.empty' : 'leaderboard.empty')} />
      ) : (
        <table className="iv-table" aria-label={t(kind === 'ranking' ? 'tabs.ranking' : 'tabs.leaderboard')}>
          <thead>
            <tr>
              <th className="iv-rank">{t('ranking.rank')}</th>
              <th>{t('invitees.account')}</th>
              <th className="iv-num">{t('ranking.invitees')}</th>
              <th className="iv-num">{t('ranking.rebate')}</th>
            </tr>
          </thead>
          <tbody>{list.records.map((r) => row(r))}</tbody>
        </table>
      )}
      <div className="iv-mine" data-testid={`${kind}-mine`}>
        {list.mine.rank > 0 ? t('ranking.myRank', { rank: list.mine.rank }) : t('ranking.notRanked')}
        <span>
          {t('ranking.rebate')}: {usdt(list.mine.rebate)} USDT
        </span>
      </div>
    </>
  );
}

/** The monthly ranking: this month (from its 1st) or last month. */
export function RankingView() {
  const { t } = useTranslation('invite');
  const [month, setMonth] = useState<'this' | 'last'>('this');
  const q = useRanking(month);
  return (
    <>
      <SegTabs
        items={[
          { key: 'this', label: t('ranking.thisMonth') },
          { key: 'last', label: t('ranking.lastMonth') },
        ]}
        active={month}
        onChange={setMonth}
        label={t('ranking.month')}
        classPrefix="iv"
        variant="pill"
      />
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <p className="iv-note">{t('ranking.from', { month: q.data!.month, from: formatDateTime(q.data!.from) })}</p>
          <RankRows list={q.data!} kind="ranking" />
        </>
      )}
    </>
  );
}

/** The all-time leaderboard by number of invitees. */
export function LeaderboardView() {
  const { t } = useTranslation('invite');
  const q = useLeaderboard();
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <>
      <p className="iv-note">{t('leaderboard.note')}</p>
      <RankRows list={q.data!} kind="leaderboard" />
    </>
  );
}
