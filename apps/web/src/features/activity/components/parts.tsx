/**
 * Pieces shared by the activity screens: the status tag, the hero (banner image, or a gradient with the kind's mark
 * when the activity has no banner), the card of the list and the history, and a clock ticking once a second for the
 * countdowns.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityItem } from '@exchange/api';
import { formatCoin, formatCountdown, formatDateTime } from '../../../shared/format';

/** Now (Unix ms), re-rendered once a second. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return now;
}

/**
 * An amount of the prize coin (or a progress in the activity's own unit) as shared/format's rule shows an amount
 * the user reconciles exactly: grouped, up to 8 decimals without trailing zeros ("1,000", "0.1369863").
 */
export function coinAmount(value: string): string {
  return formatCoin(value, '', { exact: true });
}

/** The status tag: Ongoing / Upcoming / Ended / Rewards paid. */
export function StatusTag({ a }: { a: Pick<ActivityItem, 'status' | 'settled'> }) {
  const { t } = useTranslation('activity');
  const key = a.settled ? 'SETTLED' : a.status;
  return <span className={`act-status act-status-${key.toLowerCase()}`}>{t(`status.${key}`)}</span>;
}

/** The time line of an activity: a countdown while upcoming or ongoing (under a day), else the period. */
export function TimeLine({ a, now }: { a: Pick<ActivityItem, 'status' | 'startTime' | 'endTime'>; now: number }) {
  const { t } = useTranslation('activity');
  const day = 86_400_000;
  if (a.status === 'UPCOMING' && a.startTime - now < day) return <span className="act-time">{t('startsIn', { time: formatCountdown(a.startTime, now) })}</span>;
  if (a.status === 'ONGOING' && a.endTime - now < day) return <span className="act-time">{t('endsIn', { time: formatCountdown(a.endTime, now) })}</span>;
  return <span className="act-time">{t('period', { start: formatDateTime(a.startTime).slice(0, 16), end: formatDateTime(a.endTime).slice(0, 16) })}</span>;
}

/** The banner: the activity's image, or a gradient of its kind with the title on it. */
export function Hero({ a, children }: { a: Pick<ActivityItem, 'banner' | 'kind' | 'title'>; children?: ReactNode }) {
  const { t } = useTranslation('activity');
  return (
    <div className={`act-hero act-hero-${a.kind.toLowerCase()}`}>
      {a.banner ? <img className="act-hero-img" src={a.banner} alt="" loading="lazy" /> : null}
      <div className="act-hero-text">
        <span className="act-kind">{t(`kind.${a.kind}`)}</span>
        <span className="act-hero-title">{a.title}</span>
        {children}
      </div>
    </div>
  );
}

/** One activity of a list: hero, status, time, prize pool and participants; `extra` below (the history's figures). */
export function ActivityCard({ a, now, onOpen, extra }: { a: ActivityItem; now: number; onOpen: () => void; extra?: ReactNode }) {
  const { t } = useTranslation('activity');
  return (
    <li className="act-card">
      <button type="button" className="act-card-button" onClick={onOpen} aria-label={t('open', { title: a.title })}>
        <Hero a={a} />
        <div className="act-card-body">
          <div className="act-row">
            <StatusTag a={a} />
            <TimeLine a={a} now={now} />
          </div>
          <div className="act-figures">
            <div>
              <div className="act-figure-label">{t('pool')}</div>
              <div className="act-figure-value">
                {coinAmount(a.budget)} <small>{a.coin}</small>
              </div>
            </div>
            <div>
              <div className="act-figure-label">{t('participants')}</div>
              <div className="act-figure-value">{a.participants}</div>
            </div>
          </div>
          {extra}
        </div>
      </button>
    </li>
  );
}
