/**
 * Activities (docs/activities.md): every campaign with its status, participants and payout; an operator
 * with `wallet_decide` (finance, admin: a campaign commits the marketing budget) defines a trading competition
 * (prize table) or a deposit bonus (threshold and bonus) with both languages' title and rules, an optional banner,
 * the period and the budget, and may end one early (the payout job pays it within seconds). The ranking drawer shows
 * the live ranking with user ids. The server audits each action (activity_create, activity_end).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Drawer, Form, Input, Popconfirm, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActivityKind, ActivityScope, AdminActivity, CreateActivityBody } from '@exchange/api';
import { formatAmount, formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useActivities, useActivityDetail, useCreateActivity, useEndActivity } from './api/activities';

/** The permission the server's create and end routes require. */
export const ACTIVITY_DECIDE = 'wallet_decide' as const;
const STATUS_COLOR = { UPCOMING: 'blue', ONGOING: 'green', ENDED: 'default' } as const;

/** The create form's values (times as the browser's datetime-local text). */
interface FormValues {
  kind: ActivityKind;
  titleZh: string;
  titleEn: string;
  rulesZh: string;
  rulesEn: string;
  banner: string;
  start: string;
  end: string;
  coin: string;
  scope: ActivityScope;
  prizes: string;
  budget: string;
  minDeposit: string;
  bonus: string;
}

/** "YYYY-MM-DDTHH:mm" of a local time, for a datetime-local input. */
export function localInput(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The request body of the form's values. */
export function bodyOf(v: FormValues): CreateActivityBody {
  const body: CreateActivityBody = {
    kind: v.kind,
    titleZh: v.titleZh.trim(),
    titleEn: v.titleEn.trim(),
    rulesZh: v.rulesZh,
    rulesEn: v.rulesEn,
    startTime: new Date(v.start).getTime(),
    endTime: new Date(v.end).getTime(),
    coin: v.coin,
    scope: v.scope,
    budget: v.budget.trim(),
  };
  if (v.banner?.trim()) body.banner = v.banner.trim();
  if (v.kind === 'TRADING') body.prizes = v.prizes.trim();
  else {
    body.minDeposit = v.minDeposit.trim();
    body.bonus = v.bonus.trim();
  }
  return body;
}

const AMOUNT = /^[0-9]{1,30}(\.[0-9]{1,8})?$/;

function RankingDrawer({ activityId, onClose }: { activityId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const q = useActivityDetail(activityId);
  const a = q.data?.activity;
  return (
    <Drawer open={activityId !== null} onClose={onClose} width={640} title={a ? `${a.titleZh} / ${a.titleEn}` : t('activities.ranking')}>
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      {a && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">
            {formatTime(a.startTime)} – {formatTime(a.endTime)} · {t(`activities.kinds.${a.kind}`)} · {t('activities.paid')}: {formatAmount(a.paid)} {a.coin}
          </Typography.Text>
          <Table
            rowKey="userId"
            size="small"
            pagination={false}
            dataSource={q.data?.ranking ?? []}
            columns={[
              { title: t('activities.rank'), dataIndex: 'rank', width: 60 },
              { title: 'UID', dataIndex: 'userId' },
              { title: t('activities.account'), dataIndex: 'account' },
              {
                title: a.kind === 'TRADING' ? t('activities.volume') : t('activities.deposits'),
                dataIndex: 'progress',
                align: 'right',
                render: (v: string) => formatAmount(v),
              },
              { title: t('activities.prize'), dataIndex: 'prize', align: 'right', render: (v: string) => formatAmount(v) },
            ]}
          />
        </Space>
      )}
    </Drawer>
  );
}

export default function ActivitiesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canDecide = useCan(ACTIVITY_DECIDE);
  const q = useActivities();
  const create = useCreateActivity();
  const end = useEndActivity();
  const [form] = Form.useForm<FormValues>();
  const [kind, setKind] = useState<ActivityKind>('TRADING');
  const [ranking, setRanking] = useState<string | null>(null);
  const now = Date.now();
  const submit = (v: FormValues) =>
    create.mutate(bodyOf(v), {
      onSuccess: (r) => {
        void message.success(t('activities.created', { id: r.activityId }));
        form.resetFields(['titleZh', 'titleEn', 'rulesZh', 'rulesEn', 'banner']);
      },
    });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      {canDecide && (
        <Card size="small" title={t('activities.create')}>
          <Form<FormValues>
            form={form}
            layout="vertical"
            style={{ maxWidth: 880 }}
            initialValues={{
              kind: 'TRADING',
              coin: 'USDT',
              scope: 'ALL',
              start: localInput(now),
              end: localInput(now + 7 * 86_400_000),
              prizes: '',
              budget: '',
              minDeposit: '',
              bonus: '',
              banner: '',
            }}
            onFinish={submit}
            onValuesChange={(c: Partial<FormValues>) => c.kind && setKind(c.kind)}
          >
            <Form.Item name="kind" label={t('activities.kind')}>
              <Radio.Group optionType="button" options={(['TRADING', 'DEPOSIT'] as const).map((k) => ({ value: k, label: t(`activities.kinds.${k}`) }))} />
            </Form.Item>
            <Space align="start" size="large" wrap>
              <Form.Item name="titleZh" label={t('activities.titleZh')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
                <Input maxLength={100} style={{ width: 280 }} />
              </Form.Item>
              <Form.Item name="titleEn" label={t('activities.titleEn')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
                <Input maxLength={100} style={{ width: 280 }} />
              </Form.Item>
            </Space>
            <Form.Item name="rulesZh" label={t('activities.rulesZh')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
              <Input.TextArea rows={3} maxLength={4000} />
            </Form.Item>
            <Form.Item name="rulesEn" label={t('activities.rulesEn')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
              <Input.TextArea rows={3} maxLength={4000} />
            </Form.Item>
            <Form.Item
              name="banner"
              label={t('activities.banner')}
              extra={t('activities.bannerHelp')}
              rules={[{ pattern: /^((https:\/\/|\/)\S*)?$/, message: t('activities.bannerHelp') }]}
            >
              <Input placeholder="https://" />
            </Form.Item>
            <Space align="start" size="large" wrap>
              <Form.Item name="start" label={t('activities.start')} rules={[{ required: true, message: t('errors.required') }]}>
                <Input type="datetime-local" style={{ width: 220 }} />
              </Form.Item>
              <Form.Item name="end" label={t('activities.end')} rules={[{ required: true, message: t('errors.required') }]}>
                <Input type="datetime-local" style={{ width: 220 }} />
              </Form.Item>
              <Form.Item name="coin" label={t('activities.coin')}>
                <Select style={{ width: 120 }} options={[{ value: 'USDT', label: 'USDT' }]} />
              </Form.Item>
              {kind === 'TRADING' && (
                <Form.Item name="scope" label={t('activities.scope')}>
                  <Select
                    style={{ width: 200 }}
                    options={(['ALL', 'SPOT', 'CONTRACT'] as const).map((s) => ({ value: s, label: t(`activities.scopes.${s}`) }))}
                  />
                </Form.Item>
              )}
            </Space>
            <Space align="start" size="large" wrap>
              {kind === 'TRADING' ? (
                <Form.Item
                  name="prizes"
                  label={t('activities.prizes')}
                  extra={t('activities.prizesHelp')}
                  rules={[{ required: true, pattern: /^\s*[0-9.]+(\s*,\s*[0-9.]+)*\s*$/, message: t('activities.prizesHelp') }]}
                >
                  <Input placeholder="1000, 500, 200" style={{ width: 320 }} />
                </Form.Item>
              ) : (
                <>
                  <Form.Item
                    name="minDeposit"
                    label={t('activities.minDeposit')}
                    rules={[{ required: true, pattern: AMOUNT, message: t('activities.amountHelp') }]}
                  >
                    <Input style={{ width: 160 }} />
                  </Form.Item>
                  <Form.Item name="bonus" label={t('activities.bonus')} rules={[{ required: true, pattern: AMOUNT, message: t('activities.amountHelp') }]}>
                    <Input style={{ width: 160 }} />
                  </Form.Item>
                </>
              )}
              <Form.Item
                name="budget"
                label={t('activities.budget')}
                extra={t('activities.budgetHelp')}
                rules={[{ required: true, pattern: AMOUNT, message: t('activities.amountHelp') }]}
              >
                <Input style={{ width: 160 }} />
              </Form.Item>
            </Space>
            {create.error && <Alert type="error" showIcon message={create.error.message} style={{ marginBottom: 12 }} />}
            <Button type="primary" htmlType="submit" loading={create.isPending}>
              {t('activities.createAction')}
            </Button>
          </Form>
        </Card>
      )}
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      {end.error && <Alert type="error" showIcon message={end.error.message} />}
      <Card size="small">
        <Table<AdminActivity>
          rowKey="activityId"
          size="middle"
          loading={q.isFetching && !q.data}
          dataSource={q.data ?? []}
          pagination={false}
          columns={[
            { title: 'ID', dataIndex: 'activityId', width: 60 },
            {
              title: t('activities.title'),
              key: 'title',
              render: (_: unknown, r) => (
                <div>
                  <div>{r.titleZh}</div>
                  <Typography.Text type="secondary">{r.titleEn}</Typography.Text>
                </div>
              ),
            },
            { title: t('activities.kind'), dataIndex: 'kind', render: (k: ActivityKind) => t(`activities.kinds.${k}`) },
            {
              title: t('activities.period'),
              key: 'period',
              render: (_: unknown, r) => `${formatTime(r.startTime).slice(0, 16)} – ${formatTime(r.endTime).slice(0, 16)}`,
            },
            {
              title: t('activities.rewards'),
              key: 'rewards',
              render: (_: unknown, r) =>
                r.kind === 'TRADING'
                  ? r.prizes.map((p) => formatAmount(p)).join(' / ')
                  : t('activities.bonusLine', { min: formatAmount(r.minDeposit), bonus: formatAmount(r.bonus) }),
            },
            { title: t('activities.budget'), dataIndex: 'budget', align: 'right', render: (v: string, r) => `${formatAmount(v)} ${r.coin}` },
            { title: t('activities.participants'), dataIndex: 'participants', align: 'right' },
            {
              title: t('activities.status'),
              key: 'status',
              render: (_: unknown, r) =>
                r.settled ? (
                  <Tag color="gold">{t('activities.settled', { paid: formatAmount(r.paid) })}</Tag>
                ) : (
                  <Tag color={STATUS_COLOR[r.status]}>{t(`activities.statuses.${r.status}`)}</Tag>
                ),
            },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, r: AdminActivity) => (
                <Space>
                  <Button size="small" onClick={() => setRanking(r.activityId)}>
                    {t('activities.ranking')}
                  </Button>
                  {canDecide && r.status !== 'ENDED' && (
                    <Popconfirm
                      title={t('activities.confirmEnd', { title: r.titleEn })}
                      okText={t('common.ok')}
                      cancelText={t('common.cancel')}
                      onConfirm={() => end.mutate(r.activityId, { onSuccess: () => void message.success(t('activities.ended')) })}
                    >
                      <Button size="small" danger>
                        {t('activities.endNow')}
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <RankingDrawer activityId={ranking} onClose={() => setRanking(null)} />
    </Space>
  );
}
