/**
 * /activityDetails?activityId=: one activity. The hero with its status and countdown; the join button (logged out: the
 * log-in prompt; before the start, after the end and once joined: disabled with the reason); the user's progress
 * (volume or deposits, rank or order of qualifying, the prize at that rank, or the reward paid); the prize table or the
 * deposit bonus; the live leaderboard (polled every 5 s, the user's row marked); the rules in the app's language.
 */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd-mobile';
import type { ActivityItem, ActivityMine } from '@exchange/api';
import { divDecimal, formatDateTime } from '../../../shared/format';
import { useRequireLogin } from '../../../shared/guards';
import { useAppStore } from '../../../shared/storage';
import { EmptyState, InlineLoading, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { showToast } from '../../../shared/api-client';
import { useActivity } from '../api/get-activity';
import { useLeaderboard } from '../api/get-leaderboard';
import { useMine } from '../api/get-mine';
import { useJoinActivity } from '../api/join';
import { coinAmount, Hero, StatusTag, TimeLine, useNow } from '../components/parts';
import '../activity.css';

/** How many users a deposit bonus can pay: floor(budget / bonus). */
export function bonusQuota(a: Pick<ActivityItem, 'budget' | 'bonus'>): string {
  return divDecimal(a.budget, a.bonus, 0, 'down');
}

function JoinBar({ a, mine }: { a: ActivityItem; mine: ActivityMine | undefined }) {
  const { t } = useTranslation('activity');
  const navigate = useNavigate();
  const requireLogin = useRequireLogin();
  const join = useJoinActivity();
  const goTo = a.kind === 'DEPOSIT' ? '/assets/chooseCoin' : a.scope === 'CONTRACT' ? '/contract' : '/transaction';
  if (mine?.joined) {
    return (
      <div className="act-join">
        <Button block disabled>
          {t('detail.joined')}
        </Button>
        {a.status === 'ONGOING' ? (
          <Button block color="primary" onClick={() => navigate(goTo)}>
            {t(a.kind === 'DEPOSIT' ? 'detail.toDeposit' : 'detail.toTrade')}
          </Button>
        ) : null}
      </div>
    );
  }
  if (a.status !== 'ONGOING') {
    return (
      <div className="act-join">
        <Button block disabled>
          {t(a.status === 'UPCOMING' ? 'detail.notStarted' : 'detail.ended')}
        </Button>
      </div>
    );
  }
  const onJoin = () => {
    if (!requireLogin()) return;
    join.mutate(a.activityId, { onSuccess: () => showToast(t('detail.joinedToast')) });
  };
  return (
    <div className="act-join">
      <Button block color="primary" loading={join.isPending} onClick={onJoin}>
        {t('detail.join')}
      </Button>
    </div>
  );
}

function MineSection({ a, mine }: { a: ActivityItem; mine: ActivityMine | undefined }) {
  const { t } = useTranslation('activity');
  const isLogin = useAppStore((s) => s.isLogin);
  const trading = a.kind === 'TRADING';
  return (
    <section className="act-section" aria-label={t('detail.mine')}>
      <h3 className="act-h3">{t('detail.mine')}</h3>
      {!isLogin ? (
        <p className="act-note">{t('detail.loginToJoin')}</p>
      ) : !mine ? (
        <InlineLoading />
      ) : !mine.joined ? (
        <p className="act-note">{t('detail.notJoined')}</p>
      ) : (
        <div className="act-figures act-figures-3">
          <div>
            <div className="act-figure-label">{t(trading ? 'detail.volume' : 'detail.deposited', { coin: a.coin })}</div>
            <div className="act-figure-value" data-testid="act-my-progress">
              {coinAmount(mine.progress)}
            </div>
          </div>
          <div>
            <div className="act-figure-label">{t(trading ? 'detail.rank' : 'detail.order')}</div>
            <div className="act-figure-value" data-testid="act-my-rank">
              {mine.rank > 0 ? `#${mine.rank}` : t(trading ? 'detail.unranked' : 'detail.notQualified')}
            </div>
          </div>
          <div>
            <div className="act-figure-label">{t(mine.paid || a.settled ? 'detail.reward' : 'detail.expected')}</div>
            <div className={`act-figure-value${mine.paid ? ' act-paid' : ''}`}>
              {coinAmount(mine.reward)} <small>{a.coin}</small>
            </div>
          </div>
          {mine.paid ? <p className="act-note act-span">{t('detail.paid')}</p> : null}
        </div>
      )}
    </section>
  );
}

function PrizeSection({ a }: { a: ActivityItem }) {
  const { t } = useTranslation('activity');
  return (
    <section className="act-section" aria-label={t('detail.prizes')}>
      <h3 className="act-h3">{t('detail.prizes')}</h3>
      {a.kind === 'TRADING' ? (
        <>
          <ol className="act-prizes">
            {a.prizes.map((p, i) => (
              <li key={i} className={`act-prize act-prize-${Math.min(i + 1, 4)}`}>
                <span>{t('detail.rankN', { n: i + 1 })}</span>
                <span className="act-strong">
                  {coinAmount(p)} {a.coin}
                </span>
              </li>
            ))}
          </ol>
          <div className="act-row">
            <span className="act-row-label">{t('detail.scope')}</span>
            <span className="act-row-value">{t(`scope.${a.scope}`)}</span>
          </div>
        </>
      ) : (
        <>
          <p className="act-bonus">{t('detail.bonusRule', { min: coinAmount(a.minDeposit), bonus: coinAmount(a.bonus), coin: a.coin })}</p>
          <p className="act-note">{t('detail.quota', { n: bonusQuota(a) })}</p>
        </>
      )}
    </section>
  );
}

function Leaderboard({ a, myRank }: { a: ActivityItem; myRank: number }) {
  const { t } = useTranslation('activity');
  const q = useLeaderboard(a.activityId);
  const trading = a.kind === 'TRADING';
  const title = t(trading ? 'detail.leaderboard' : 'detail.qualified');
  return (
    <section className="act-section" aria-label={title}>
      <h3 className="act-h3">
        {title}
        {a.status === 'ONGOING' ? <span className="act-live">{t('detail.live')}</span> : null}
      </h3>
      {isAwaiting(q) ? (
        <ListSkeleton />
      ) : q.isError && !q.data ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : (q.data?.records ?? []).length === 0 ? (
        <p className="act-note">{t('detail.noRanks')}</p>
      ) : (
        <table className="act-board">
          <thead>
            <tr>
              <th scope="col">{t('detail.colRank')}</th>
              <th scope="col">{t('detail.colName')}</th>
              <th scope="col">{t(trading ? 'detail.colVolume' : 'detail.colDeposit')}</th>
              <th scope="col">{t('detail.colPrize')}</th>
            </tr>
          </thead>
          <tbody>
            {q.data!.records.map((r) => (
              <tr key={r.rank} className={r.rank === myRank ? 'act-board-me' : undefined}>
                <td>
                  <span className={`act-medal act-medal-${Math.min(r.rank, 4)}`}>{r.rank}</span>
                </td>
                <td>
                  {r.name}
                  {r.rank === myRank ? <span className="act-you">{t('detail.you')}</span> : null}
                </td>
                <td>{coinAmount(r.progress)}</td>
                <td>{coinAmount(r.prize)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The activity details page. */
export default function ActivityDetailsPage() {
  const { t } = useTranslation('activity');
  const [params] = useSearchParams();
  const id = params.get('activityId') ?? '';
  const valid = /^[1-9][0-9]{0,17}$/.test(id);
  const q = useActivity(valid ? id : '');
  const mine = useMine(valid ? id : '');
  const now = useNow();
  const a = q.data;
  return (
    <div className="act-page">
      <PageHeader title={t('detail.title')} fallback="/activity" />
      {!valid ? (
        <EmptyState text={t('detail.notFound')} />
      ) : q.isLoading ? (
        <InlineLoading />
      ) : q.isError && !a ? (
        <LoadFailed error={q.error} onRetry={() => void q.refetch()} />
      ) : a ? (
        <>
          <div className="act-detail-hero">
            <Hero a={a}>
              <span className="act-hero-meta">
                <StatusTag a={a} /> <TimeLine a={a} now={now} />
              </span>
            </Hero>
          </div>
          <div className="act-figures act-summary">
            <div>
              <div className="act-figure-label">{t('pool')}</div>
              <div className="act-figure-value">
                {coinAmount(a.budget)} <small>{a.coin}</small>
              </div>
            </div>
            <div>
              <div className="act-figure-label">{t('participants')}</div>
              <div className="act-figure-value" data-testid="act-participants">
                {a.participants}
              </div>
            </div>
          </div>
          <JoinBar a={a} mine={mine.data} />
          <MineSection a={a} mine={mine.data} />
          <PrizeSection a={a} />
          <Leaderboard a={a} myRank={mine.data?.joined ? mine.data.rank : 0} />
          <section className="act-section" aria-label={t('detail.rules')}>
            <h3 className="act-h3">{t('detail.rules')}</h3>
            <div className="act-row">
              <span className="act-row-label">{t('detail.period')}</span>
              <span className="act-row-value">
                {t('period', { start: formatDateTime(a.startTime).slice(0, 16), end: formatDateTime(a.endTime).slice(0, 16) })}
              </span>
            </div>
            <p className="act-rules">{a.rules}</p>
          </section>
        </>
      ) : null}
    </div>
  );
}
