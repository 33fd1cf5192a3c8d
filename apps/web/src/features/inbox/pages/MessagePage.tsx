/**
 * /message (spec section 2, no login guard in the router): the in-app inbox. Tabs All / Trades / Assets /
 * P2P / Account with their unread counts, the messages newest first (20 a page, "load more"), a message opens in place
 * and is marked read, "Mark all read" in the header marks the tab's messages read. Live: the 'inbox' pushes refetch
 * the counts and the list (shared/inbox-api). Logged out, the page asks to log in (as the other unguarded routes).
 */
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InboxMessage } from '@exchange/api';
import { EmptyState, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { useInboxUnread } from '../../../shared/inbox-api';
import { showToast } from '../../../shared/api-client';
import { useAppStore } from '../../../shared/storage';
import { useInboxMessages, type InboxTab } from '../api/get-messages';
import { useMarkAllInboxRead, useMarkInboxRead } from '../api/mark-read';
import { MessageItem } from '../components/MessageItem';
import '../inbox.css';

const TABS: readonly InboxTab[] = ['ALL', 'TRADE', 'ASSET', 'OTC', 'ACCOUNT'];

function Messages({ tab }: { tab: InboxTab }) {
  const { t } = useTranslation('inbox');
  const q = useInboxMessages(tab);
  const markRead = useMarkInboxRead();
  const [openId, setOpenId] = useState<string | null>(null);
  const onToggle = useCallback(
    (m: InboxMessage) => {
      setOpenId((cur) => (cur === m.id ? null : m.id));
      if (!m.read) markRead.mutate(m.id);
    },
    [markRead],
  );
  if (q.isPending) return <ListSkeleton />;
  if (q.isError) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const records = q.data.pages.flatMap((p) => p.records);
  if (records.length === 0) return <EmptyState text={t('empty')} />;
  return (
    <>
      <ul className="ib-list" aria-label={t(`tabs.${tab}`)}>
        {records.map((m) => (
          <MessageItem key={m.id} message={m} open={openId === m.id} onToggle={onToggle} />
        ))}
      </ul>
      {q.hasNextPage ? (
        <button type="button" className="ib-more" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          {t('loadMore')}
        </button>
      ) : (
        records.length > 5 && <div className="ib-end">{t('noMore')}</div>
      )}
    </>
  );
}

function Tabs({ tab, onTab }: { tab: InboxTab; onTab: (k: InboxTab) => void }) {
  const { t } = useTranslation('inbox');
  const unread = useInboxUnread();
  const count = (k: InboxTab) => (unread ? (k === 'ALL' ? unread.total : unread.byCategory[k]) : 0);
  return (
    <>
      <div className="ib-tabs" role="tablist" aria-label={t('title')}>
        {TABS.map((k) => (
          <button key={k} type="button" role="tab" aria-selected={k === tab} className={`ib-tab${k === tab ? ' ib-tab-active' : ''}`} onClick={() => onTab(k)}>
            {t(`tabs.${k}`)}
            {count(k) > 0 && (
              <span className="ib-tab-count num" aria-label={t('unreadCount', { count: count(k) })}>
                {count(k) > 99 ? '99+' : count(k)}
              </span>
            )}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        <Messages key={tab} tab={tab} />
      </div>
    </>
  );
}

/** "Mark all read" of the header: the tab's unread messages (a toast when there are none). */
function MarkAll({ tab }: { tab: InboxTab }) {
  const { t } = useTranslation('inbox');
  const unread = useInboxUnread();
  const markAll = useMarkAllInboxRead();
  const count = unread ? (tab === 'ALL' ? unread.total : unread.byCategory[tab]) : 0;
  const onClick = () => {
    if (count === 0) {
      showToast(t('nothingUnread'));
      return;
    }
    markAll.mutate(tab === 'ALL' ? undefined : tab, { onSuccess: () => showToast(t('allRead')) });
  };
  return (
    <button type="button" className="ib-mark-all" disabled={markAll.isPending} onClick={onClick}>
      {t('markAllRead')}
    </button>
  );
}

/** The inbox page. */
export default function MessagePage() {
  const { t } = useTranslation('inbox');
  const isLogin = useAppStore((s) => s.isLogin);
  const [tab, setTab] = useState<InboxTab>('ALL');
  return (
    <div className="ib-page">
      <PageHeader title={t('title')} fallback="/" right={isLogin ? <MarkAll tab={tab} /> : undefined} />
      <LoginFirst>
        <Tabs tab={tab} onTab={setTab} />
      </LoginFirst>
    </div>
  );
}
