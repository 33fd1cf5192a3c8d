/**
 * /invitation (spec sections 2 "Invitation: rebate rules, invitation code, poster, in-person invite,
 * ranking, my rebates, leaderboard; share poster popup", 3 "invitation code record" and "invitee list entry", 9 the
 * rebate constants). Logged in: the offer and the caller's totals, the threshold standing, the invitation code
 * (member/member/code welCode) and link (the register page reads ?code=), both with copy; the poster popup and the
 * full-screen in-person QR; tabs with my invitees, my rebates per day, the monthly ranking and the leaderboard; and
 * the rules, with the reading of the 5,000 USDT threshold (docs/rebates.md). Logged out: the rules and a log-in prompt.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { copyText } from '../../../shared/clipboard';
import { groupThousands } from '../../../shared/format';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { useAppStore } from '../../../shared/storage';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { useInviteCode } from '../api/get-code';
import { useInviteRules } from '../api/get-rules';
import { useInviteSummary } from '../api/get-summary';
import { InPersonInvite } from '../components/InPersonInvite';
import { InviteesList, LeaderboardView, RankingView, RebatesList, usdt } from '../components/InviteLists';
import { PosterPopup } from '../components/PosterPopup';
import '../invite.css';

type Tab = 'invitees' | 'rebates' | 'ranking' | 'leaderboard';

/** The invitation link of a code: this site's register page with ?code= (what RegisterPage prefills). */
export function inviteLink(code: string, registerPath = '/register?code='): string {
  return `${window.location.origin}${registerPath}${encodeURIComponent(code)}`;
}

export default function InvitationPage() {
  const { t } = useTranslation('invite');
  return (
    <div className="iv-page">
      <PageHeader title={t('title')} fallback="/" />
      <Hero />
      <LoginFirst>
        <Mine />
      </LoginFirst>
      <Rules />
    </div>
  );
}

function Hero() {
  const { t } = useTranslation('invite');
  const rules = useInviteRules().data;
  return (
    <section className="iv-hero">
      <h1 className="iv-hero-title">{t('hero.title', { ratio: rules?.ratioPercent ?? '30' })}</h1>
      <p className="iv-hero-sub">{t('hero.sub', { time: rules?.settleTime ?? '00:00' })}</p>
    </section>
  );
}

function Mine() {
  const { t } = useTranslation('invite');
  const isLogin = useAppStore((s) => s.isLogin);
  const code = useInviteCode();
  const summary = useInviteSummary(isLogin);
  const rules = useInviteRules().data;
  const [tab, setTab] = useState<Tab>('invitees');
  const [poster, setPoster] = useState(false);
  const [inPerson, setInPerson] = useState(false);
  if (code.isLoading) return <InlineLoading />;
  if (code.isError) return <LoadFailed error={code.error} onRetry={() => void code.refetch()} />;
  const welCode = code.data ?? '';
  const link = inviteLink(welCode, rules?.registerPath);
  const copy = async (text: string) => showToast((await copyText(text)) ? t('copied') : t('common:copyFailed'));
  const s = summary.data;
  return (
    <>
      <section className="iv-card iv-stats" aria-label={t('stats.title')}>
        <div>
          <div className="iv-stat-value" data-testid="invitee-count">
            {s ? s.inviteeCount : '--'}
          </div>
          <div className="iv-stat-label">{t('stats.invitees')}</div>
        </div>
        <div>
          <div className="iv-stat-value" data-testid="total-rebate">
            {s ? usdt(s.totalRebate) : '--'}
          </div>
          <div className="iv-stat-label">{t('stats.total')}</div>
        </div>
        <div>
          <div className="iv-stat-value" data-testid="pending-rebate">
            {s ? usdt(s.pendingRebate) : '--'}
          </div>
          <div className="iv-stat-label">{t('stats.pending')}</div>
        </div>
      </section>
      {s && (
        <p className={`iv-threshold ${s.qualified ? 'iv-ok' : 'iv-warn'}`} role="status">
          {s.qualified
            ? t('threshold.ok', { threshold: groupThousands(rules?.threshold ?? '5000') })
            : t('threshold.below', { threshold: groupThousands(rules?.threshold ?? '5000'), holdings: usdt(s.holdings) })}
        </p>
      )}
      <section className="iv-card" aria-label={t('myCode')}>
        <div className="iv-label">{t('myCode')}</div>
        <div className="iv-code-row">
          <span className="iv-code" data-testid="invite-code">
            {welCode}
          </span>
          <button type="button" className="iv-btn iv-btn-ghost" onClick={() => void copy(welCode)}>
            {t('copyCode')}
          </button>
        </div>
        <div className="iv-label">{t('myLink')}</div>
        <div className="iv-code-row">
          <span className="iv-link" data-testid="invite-link">
            {link}
          </span>
          <button type="button" className="iv-btn iv-btn-ghost" onClick={() => void copy(link)}>
            {t('copyLink')}
          </button>
        </div>
        <div className="iv-actions">
          <button type="button" className="iv-btn iv-btn-primary" onClick={() => setPoster(true)} disabled={!welCode}>
            {t('poster.open')}
          </button>
          <button type="button" className="iv-btn iv-btn-secondary" onClick={() => setInPerson(true)} disabled={!welCode}>
            {t('inPerson.open')}
          </button>
        </div>
      </section>
      <section className="iv-card iv-lists">
        <SegTabs
          items={[
            { key: 'invitees', label: t('tabs.invitees') },
            { key: 'rebates', label: t('tabs.rebates') },
            { key: 'ranking', label: t('tabs.ranking') },
            { key: 'leaderboard', label: t('tabs.leaderboard') },
          ]}
          active={tab}
          onChange={setTab}
          label={t('tabs.label')}
          classPrefix="iv"
        />
        <div className="iv-tab-body">
          {tab === 'invitees' && <InviteesList />}
          {tab === 'rebates' && <RebatesList />}
          {tab === 'ranking' && <RankingView />}
          {tab === 'leaderboard' && <LeaderboardView />}
        </div>
      </section>
      <PosterPopup
        visible={poster}
        onClose={() => setPoster(false)}
        texts={{
          appName: t('common:appName'),
          headline: t('poster.headline', { ratio: rules?.ratioPercent ?? '30' }),
          subline: t('poster.subline'),
          codeLabel: t('myCode'),
          code: welCode,
          scanHint: t('poster.scan'),
          link,
          footer: t('poster.footer'),
        }}
      />
      {inPerson && <InPersonInvite link={link} code={welCode} onClose={() => setInPerson(false)} />}
    </>
  );
}

function Rules() {
  const { t } = useTranslation('invite');
  const r = useInviteRules().data;
  const v = { ratio: r?.ratioPercent ?? '30', threshold: groupThousands(r?.threshold ?? '5000'), time: r?.settleTime ?? '00:00', asset: r?.asset ?? 'USDT' };
  return (
    <section className="iv-card iv-rules" aria-labelledby="iv-rules-title">
      <h2 id="iv-rules-title">{t('rules.title')}</h2>
      <ol>
        <li>{t('rules.r1')}</li>
        <li>{t('rules.r2', v)}</li>
        <li>{t('rules.r3', v)}</li>
        <li>{t('rules.r4', v)}</li>
        <li>{t('rules.r5', v)}</li>
        <li>{t('rules.r6')}</li>
      </ol>
    </section>
  );
}
