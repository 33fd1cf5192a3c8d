/**
 * OTC merchants: the list by state, PENDING first (the review queue); a row opens the drawer with the
 * user's account, real name, the held security deposit and the 30-day stats. An operator who may moderate (OTC_MODERATE: compliance, admin) approves or
 * rejects an application, suspends an active merchant or reinstates a suspended one, always through a dialog with the
 * reason (required except for an approval); the server audits each decision.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Drawer, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { OTC_MODERATE } from './otc-permissions';
import { useDecideMerchant, useMerchants, type MerchantDecision, type MerchantsFilter } from './api/merchants';
import type { AdminOtcMerchant, OtcMerchantState } from './api/types';
import { OtcFilter } from './OtcFilter';
import { formatSeconds, MERCHANT_COLOR } from './otc-format';
import { ReasonModal } from './ReasonModal';

const STATES: OtcMerchantState[] = ['PENDING', 'ACTIVE', 'SUSPENDED', 'REJECTED', 'LEFT'];
type Action = 'approve' | 'reject' | 'suspend' | 'reinstate';

function decisionOf(action: Action, userId: string, reason: string): MerchantDecision {
  if (action === 'approve' || action === 'reject') return { kind: 'review', userId, approve: action === 'approve', reason };
  return { kind: 'status', userId, status: action === 'suspend' ? 'SUSPENDED' : 'ACTIVE', reason };
}

function MerchantDrawer({ m, onClose }: { m: AdminOtcMerchant | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canDecide = useCan(OTC_MODERATE);
  const decide = useDecideMerchant();
  const [action, setAction] = useState<Action | null>(null);
  const actions: Action[] = !m
    ? []
    : m.state === 'PENDING'
      ? ['approve', 'reject']
      : m.state === 'ACTIVE'
        ? ['suspend']
        : m.state === 'SUSPENDED'
          ? ['reinstate']
          : [];
  const send = (reason: string) =>
    m &&
    action &&
    decide.mutate(decisionOf(action, m.userId, reason), {
      onSuccess: () => {
        void message.success(t(`otc.done.${action}`));
        setAction(null);
        onClose();
      },
    });
  return (
    <Drawer open={m !== null} onClose={onClose} width={720} title={t('otc.merchantTitle', { id: m?.userId ?? '' })} destroyOnHidden>
      {m && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('otc.userId')}>{m.userId}</Descriptions.Item>
            <Descriptions.Item label={t('otc.account')}>{m.account}</Descriptions.Item>
            <Descriptions.Item label={t('otc.nickName')}>{m.nickName}</Descriptions.Item>
            <Descriptions.Item label={t('otc.realName')}>{m.realName}</Descriptions.Item>
            <Descriptions.Item label={t('otc.state')}>
              <Tag color={MERCHANT_COLOR[m.state]}>{t(`otc.merchantState.${m.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('otc.deposit')}>{m.deposit} USDT</Descriptions.Item>
            <Descriptions.Item label={t('otc.orders30d')}>{m.stats.orders30d}</Descriptions.Item>
            <Descriptions.Item label={t('otc.completionRate')}>{m.stats.completionRate30d}%</Descriptions.Item>
            <Descriptions.Item label={t('otc.avgRelease')}>{formatSeconds(t, m.stats.avgReleaseSeconds)}</Descriptions.Item>
            <Descriptions.Item label={t('otc.appliedAt')}>{formatTime(m.appliedAt)}</Descriptions.Item>
            <Descriptions.Item label={t('otc.updatedAt')} span={2}>
              {formatTime(m.updatedAt)}
            </Descriptions.Item>
            {m.reason ? (
              <Descriptions.Item label={t('otc.lastReason')} span={2}>
                {m.reason}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          {actions.length > 0 && !canDecide && <Alert type="info" showIcon message={t('otc.noPermission')} />}
          {actions.length > 0 && canDecide && (
            <Space>
              {actions.map((a) => (
                <Button
                  key={a}
                  type={a === 'approve' || a === 'reinstate' ? 'primary' : 'default'}
                  danger={a === 'reject' || a === 'suspend'}
                  onClick={() => setAction(a)}
                >
                  {t(`otc.action.${a}`)}
                </Button>
              ))}
            </Space>
          )}
          <ReasonModal
            open={action !== null}
            title={action ? t(`otc.confirm.${action}`, { name: m.nickName || m.userId, deposit: m.deposit }) : ''}
            okText={action ? t(`otc.action.${action}`) : ''}
            danger={action === 'reject' || action === 'suspend'}
            optional={action === 'approve'}
            loading={decide.isPending}
            error={decide.error?.message}
            onOk={send}
            onCancel={() => {
              decide.reset();
              setAction(null);
            }}
          />
        </Space>
      )}
    </Drawer>
  );
}

export default function MerchantsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<MerchantsFilter>({ state: 'PENDING', page: 1 });
  const [openId, setOpenId] = useState<string | null>(null);
  const q = useMerchants(filter);
  const list = q.data?.records ?? [];
  const open = list.find((m) => m.userId === openId) ?? null;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <OtcFilter
        label={t('otc.state')}
        states={STATES}
        stateLabel={(s) => t(`otc.merchantState.${s}`)}
        value={filter.state}
        onChange={(v) => setFilter({ state: v, page: 1 })}
        onRefresh={() => void q.refetch()}
      />
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<AdminOtcMerchant>
          rowKey="userId"
          loading={q.isFetching}
          dataSource={list}
          onRow={(r) => ({ onClick: () => setOpenId(r.userId), style: { cursor: 'pointer' } })}
          pagination={{
            current: filter.page,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            showSizeChanger: false,
            onChange: (page) => setFilter({ ...filter, page }),
          }}
          columns={[
            { title: t('otc.userId'), dataIndex: 'userId', width: 110 },
            { title: t('otc.account'), dataIndex: 'account' },
            { title: t('otc.nickName'), dataIndex: 'nickName' },
            { title: t('otc.realName'), dataIndex: 'realName' },
            { title: t('otc.state'), dataIndex: 'state', render: (v: OtcMerchantState) => <Tag color={MERCHANT_COLOR[v]}>{t(`otc.merchantState.${v}`)}</Tag> },
            { title: t('otc.deposit'), dataIndex: 'deposit', align: 'right', render: (v: string) => formatAmount(v) },
            { title: t('otc.orders30d'), key: 'orders', align: 'right', render: (_: unknown, r) => r.stats.orders30d },
            { title: t('otc.completionRate'), key: 'rate', align: 'right', render: (_: unknown, r) => `${r.stats.completionRate30d}%` },
            { title: t('otc.appliedAt'), dataIndex: 'appliedAt', onCell: () => ({ style: { whiteSpace: 'nowrap' } }), render: (v: number) => formatTime(v) },
          ]}
        />
      </Card>
      <MerchantDrawer m={open} onClose={() => setOpenId(null)} />
    </Space>
  );
}
