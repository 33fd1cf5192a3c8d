/**
 * Customer service: the support queue on the left (open conversations with the waiting ones first, the
 * longest waiting first; or waiting, mine, assigned, closed), each with its status, waiting time and unread count;
 * the selected conversation on the right with its messages (live: polled every 2 s; images as authorized downloads),
 * claim, assign to another operator, close, and the reply box with the canned replies in the user's language.
 * Only roles with `support` reach this page (the server refuses the others with 403).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, App, Badge, Button, Card, Col, Empty, Image, Input, List, Row, Segmented, Select, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdminSupportConversation, SupportMessage, SupportQueueFilter, SupportStatus } from '@exchange/api';
import { useApiImage } from '../../shared/api-image';
import { formatTime } from '../../shared/format';
import { useSession } from '../../shared/session';
import { useAgents } from './api/agents';
import { useCannedReplies } from './api/canned';
import { useConversation, useConversationAction } from './api/conversation';
import { useQueue, type QueueFilter } from './api/queue';

const FILTERS: SupportQueueFilter[] = ['OPEN', 'WAITING', 'MINE', 'ASSIGNED', 'CLOSED'];
/** The colour of each status tag. */
export const STATUS_COLOR: Record<SupportStatus, string> = { WAITING: 'red', ASSIGNED: 'blue', OPEN: 'green', CLOSED: 'default' };

/** "5 min" since `ms`, in whole minutes (0 when under a minute). */
function minutesSince(ms: number, now: number): number {
  return Math.max(0, Math.floor((now - ms) / 60_000));
}

function who(c: AdminSupportConversation): string {
  return [c.nickName, c.account, c.uid ? `UID ${c.uid}` : `#${c.userId}`].filter(Boolean).join(' · ');
}

function ChatImage({ url, alt }: { url: string; alt: string }) {
  const { src, error } = useApiImage(url);
  if (error) return <Alert type="error" message={error.message} />;
  if (!src) return <Spin />;
  return <Image src={src} width={160} style={{ maxHeight: 200, objectFit: 'contain' }} alt={alt} />;
}

function Message({ m }: { m: SupportMessage }) {
  const { t } = useTranslation();
  if (m.from === 'SYSTEM') {
    return (
      <div className="support-msg support-msg-system" role="listitem">
        {t(`support.system.${m.text}`, { defaultValue: m.text })} · {formatTime(m.createdAt)}
      </div>
    );
  }
  const mine = m.from === 'OPERATOR';
  return (
    <div
      className={`support-msg ${mine ? 'support-msg-operator' : 'support-msg-user'}`}
      role="listitem"
      aria-label={mine ? t('support.fromOperator', { name: m.operatorName }) : t('support.fromUser')}
    >
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {mine ? m.operatorName : t('support.user')} · {formatTime(m.createdAt)}
      </Typography.Text>
      {m.text && <div className="support-msg-text">{m.text}</div>}
      {m.imageUrl && <ChatImage url={m.imageUrl} alt={t('support.image')} />}
    </div>
  );
}

function Conversation({ id }: { id: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const q = useConversation(id);
  const action = useConversationAction();
  const canned = useCannedReplies();
  const agents = useAgents();
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const c = q.data?.conversation;
  const messages = q.data?.messages ?? [];
  const lastId = messages[messages.length - 1]?.id;
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);
  useEffect(() => setText(''), [id]);
  if (q.error) return <Alert type="warning" showIcon message={q.error.message} />;
  if (!c) return <Spin style={{ display: 'block', margin: 48 }} />;
  const closed = c.status === 'CLOSED';
  const run = (a: Parameters<typeof action.mutate>[0], done: string, after?: () => void) =>
    action.mutate(a, { onSuccess: () => (void message.success(done), after?.()), onError: (e) => void message.error(e.message) });
  const send = () => {
    const v = text.trim();
    if (v) run({ kind: 'reply', conversationId: id, text: v }, t('support.sent'), () => setText(''));
  };
  return (
    <Card
      size="small"
      title={
        <Space wrap>
          <span>{who(c)}</span>
          <Tag color={STATUS_COLOR[c.status]}>{t(`support.status.${c.status}`)}</Tag>
          <Tag>{c.lang === 'en' ? 'English' : '中文'}</Tag>
          {c.assignedOperatorName && <Typography.Text type="secondary">{t('support.assignedTo', { name: c.assignedOperatorName })}</Typography.Text>}
        </Space>
      }
      extra={
        !closed && (
          <Space>
            {c.assignedOperatorId !== session?.operator.id && (
              <Button size="small" onClick={() => run({ kind: 'assign', conversationId: id }, t('support.claimed'))}>
                {t('support.claim')}
              </Button>
            )}
            <Select
              size="small"
              style={{ width: 160 }}
              aria-label={t('support.assign')}
              placeholder={t('support.assign')}
              value={null}
              options={(agents.data ?? [])
                .filter((a) => a.id !== c.assignedOperatorId)
                .map((a) => ({ value: a.id, label: `${a.name}${a.online ? ` · ${t('support.online')}` : ''}` }))}
              onChange={(v: string | null) => v && run({ kind: 'assign', conversationId: id, operatorId: v }, t('support.assigned'))}
            />
            <Button size="small" danger onClick={() => run({ kind: 'close', conversationId: id }, t('support.closedOk'))}>
              {t('support.close')}
            </Button>
          </Space>
        )
      }
    >
      <div className="support-messages" role="list" aria-label={t('support.messages')}>
        {messages.map((m) => (
          <Message key={m.id} m={m} />
        ))}
        <div ref={end} />
      </div>
      {!closed && (
        <Space direction="vertical" style={{ width: '100%', marginTop: 12 }}>
          <Select
            style={{ width: '100%' }}
            aria-label={t('support.canned')}
            placeholder={t('support.cannedPlaceholder', { lang: c.lang === 'en' ? 'English' : '中文' })}
            value={null}
            showSearch
            optionFilterProp="label"
            options={(canned.data ?? []).map((r) => ({ value: r.id, label: `${r.title}: ${c.lang === 'en' ? r.textEn : r.textZh}` }))}
            onChange={(v: string | null) => {
              const r = canned.data?.find((x) => x.id === v);
              if (r) setText(c.lang === 'en' ? r.textEn : r.textZh);
            }}
          />
          <Input.TextArea
            aria-label={t('support.reply')}
            placeholder={t('support.reply')}
            rows={3}
            maxLength={1000}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onPressEnter={(e) => !e.shiftKey && (e.preventDefault(), send())}
          />
          <Button type="primary" loading={action.isPending} disabled={!text.trim()} onClick={send}>
            {t('support.send')}
          </Button>
        </Space>
      )}
    </Card>
  );
}

export default function SupportPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<QueueFilter>({ filter: 'OPEN', page: 1 });
  const [openId, setOpenId] = useState('');
  const q = useQueue(filter);
  const now = Date.now();
  return (
    <Row gutter={16} wrap={false}>
      <Col flex="380px">
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Segmented
            aria-label={t('support.filter')}
            value={filter.filter}
            onChange={(v) => setFilter({ filter: v as SupportQueueFilter, page: 1 })}
            options={FILTERS.map((f) => ({
              value: f,
              label:
                f === 'WAITING' && (q.data?.waiting ?? 0) > 0 ? (
                  <Space size={4}>
                    {t(`support.filters.${f}`)}
                    <Badge count={q.data?.waiting ?? 0} size="small" />
                  </Space>
                ) : (
                  t(`support.filters.${f}`)
                ),
            }))}
          />
          {q.error && <Alert type="warning" showIcon message={q.error.message} />}
          <Card size="small" bodyStyle={{ padding: 0 }}>
            <List
              aria-label={t('support.queue')}
              loading={q.isPending}
              locale={{ emptyText: <Empty description={t('support.empty')} /> }}
              dataSource={q.data?.records ?? []}
              pagination={
                (q.data?.total ?? 0) > 20
                  ? { current: filter.page, total: q.data?.total ?? 0, pageSize: 20, size: 'small', onChange: (page) => setFilter({ ...filter, page }) }
                  : false
              }
              renderItem={(c) => (
                <List.Item
                  key={c.id}
                  onClick={() => setOpenId(c.id)}
                  className={`support-row ${c.id === openId ? 'support-row-active' : ''}`}
                  aria-label={t('support.rowLabel', { who: who(c) })}
                  extra={<Badge count={c.unread} />}
                >
                  <List.Item.Meta
                    title={
                      <Space size={6}>
                        <span>{who(c)}</span>
                        <Tag color={STATUS_COLOR[c.status]}>{t(`support.status.${c.status}`)}</Tag>
                      </Space>
                    }
                    description={
                      <>
                        <Typography.Text ellipsis style={{ maxWidth: 260, display: 'block' }}>
                          {c.lastMessage === '[image]' ? t('support.image') : c.lastMessage}
                        </Typography.Text>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {c.waitingSince > 0 && c.status !== 'CLOSED'
                            ? t('support.waitingFor', { count: minutesSince(c.waitingSince, now) })
                            : formatTime(c.lastMessageAt)}
                          {c.assignedOperatorName ? ` · ${c.assignedOperatorName}` : ''}
                        </Typography.Text>
                      </>
                    }
                  />
                </List.Item>
              )}
            />
          </Card>
        </Space>
      </Col>
      <Col flex="auto">{openId ? <Conversation id={openId} /> : <Empty style={{ marginTop: 64 }} description={t('support.pick')} />}</Col>
    </Row>
  );
}
