/**
 * The withdrawal review queue: withdrawals by status (REVIEW first by default) with approvals x/y; a row opens the
 * drawer where an operator with wallet_decide approves (a second, different operator is needed when y = 2: the drawer
 * says so, and the one who approved cannot approve again) or rejects with a reason in zh and en.
 */
import { StatusFilter } from './StatusFilter';
import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Drawer, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useSession } from '../../shared/session';
import { useDecideWithdrawal, useWithdrawals, type WithdrawalsFilter } from './api/withdrawals';
import type { AdminWithdrawal, WithdrawStatus } from './api/types';

const STATUSES: WithdrawStatus[] = ['REVIEW', 'APPROVED', 'BROADCASTING', 'CONFIRMING', 'COMPLETED', 'REJECTED', 'FAILED'];
/** Tag colour of a withdrawal status. */
export const WITHDRAW_COLOR: Record<WithdrawStatus, string> = {
  REVIEW: 'gold',
  APPROVED: 'blue',
  BROADCASTING: 'processing',
  CONFIRMING: 'processing',
  COMPLETED: 'green',
  REJECTED: 'red',
  FAILED: 'red',
};

/** "x/y" approvals. */
function approvalsText(w: AdminWithdrawal): string {
  return `${w.approvals.length}/${w.approvalsRequired}`;
}

function WithdrawalDrawer({ w, onClose }: { w: AdminWithdrawal | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const decide = useDecideWithdrawal();
  const canDecide = useCan('wallet_decide');
  const me = useSession()?.operator.email ?? '';
  const [form] = Form.useForm<{ reasonZh: string; reasonEn: string }>();
  const open = w !== null;
  const review = w?.status === 'REVIEW';
  const approvedByMe = w?.approvals.includes(me) ?? false;
  const needsSecond = w !== null && w.approvalsRequired > 1 && w.approvals.length > 0 && w.approvals.length < w.approvalsRequired;
  const approve = () =>
    w &&
    decide.mutate(
      { id: w.id, approve: true },
      {
        onSuccess: () => {
          void message.success(t('wallet.approvedToast'));
          onClose();
        },
      },
    );
  const reject = (v: { reasonZh: string; reasonEn: string }) =>
    w &&
    decide.mutate(
      { id: w.id, approve: false, reasonZh: v.reasonZh.trim(), reasonEn: v.reasonEn.trim() },
      {
        onSuccess: () => {
          void message.success(t('wallet.rejectedToast'));
          form.resetFields();
          onClose();
        },
      },
    );
  return (
    <Drawer open={open} onClose={onClose} width={720} title={t('wallet.withdrawalTitle', { id: w?.id ?? '' })} destroyOnHidden>
      {w && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('wallet.user')}>{w.userId}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.account')}>{w.account}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.coin')}>
              {w.coin} / {w.chain}
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.status')}>
              <Tag color={WITHDRAW_COLOR[w.status]}>{t(`wallet.withdrawStatus.${w.status}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.amount')}>{w.amount}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.fee')}>{w.fee}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.address')} span={2}>
              <Typography.Text copyable code>
                {w.address}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.approvals')}>{approvalsText(w)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.approvedBy')}>{w.approvals.join(', ') || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.created')}>{formatTime(w.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.updated')}>{formatTime(w.updatedAt)}</Descriptions.Item>
            {w.txHash && (
              <Descriptions.Item label={t('wallet.txHash')} span={2}>
                {w.explorerUrl ? (
                  <Typography.Link href={w.explorerUrl} target="_blank" rel="noreferrer">
                    {w.txHash}
                  </Typography.Link>
                ) : (
                  <Typography.Text copyable>{w.txHash}</Typography.Text>
                )}
              </Descriptions.Item>
            )}
            {w.reason && (
              <Descriptions.Item label={t('wallet.reason')} span={2}>
                {w.reason}
              </Descriptions.Item>
            )}
          </Descriptions>
          {needsSecond && <Alert type="info" showIcon message={t(approvedByMe ? 'wallet.secondByOther' : 'wallet.secondNeeded')} />}
          {review && !canDecide && <Alert type="info" showIcon message={t('wallet.noPermission')} />}
          {review && canDecide && (
            <>
              <Button type="primary" onClick={approve} loading={decide.isPending} disabled={approvedByMe}>
                {t('wallet.approve')}
              </Button>
              <Card size="small" title={t('wallet.reject')}>
                <Form form={form} layout="vertical" onFinish={reject} requiredMark={false}>
                  <Form.Item name="reasonZh" label={t('wallet.reasonZh')} rules={[{ required: true, whitespace: true, message: t('errors.required') }]}>
                    <Input.TextArea maxLength={200} rows={2} />
                  </Form.Item>
                  <Form.Item
                    name="reasonEn"
                    label={t('wallet.reasonEn')}
                    extra={t('wallet.reasonHelp')}
                    rules={[{ required: true, whitespace: true, message: t('errors.required') }]}
                  >
                    <Input.TextArea maxLength={200} rows={2} />
                  </Form.Item>
                  <Button danger htmlType="submit" loading={decide.isPending}>
                    {t('wallet.reject')}
                  </Button>
                </Form>
              </Card>
            </>
          )}
          {decide.error && <Alert type="error" showIcon message={decide.error.message} />}
        </Space>
      )}
    </Drawer>
  );
}

export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<WithdrawalsFilter>({ status: 'REVIEW', page: 1 });
  const [openId, setOpenId] = useState<string | null>(null);
  const q = useWithdrawals(filter);
  const list = q.data?.list ?? [];
  const open = list.find((w) => w.id === openId) ?? null;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <StatusFilter
        statuses={STATUSES}
        label={(s) => t(`wallet.withdrawStatus.${s}`)}
        value={filter.status}
        onChange={(v) => setFilter({ status: v, page: 1 })}
        onRefresh={() => void q.refetch()}
        width={160}
      />
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<AdminWithdrawal>
          rowKey="id"
          loading={q.isFetching}
          dataSource={list}
          onRow={(r) => ({ onClick: () => setOpenId(r.id), style: { cursor: 'pointer' } })}
          pagination={{
            current: filter.page,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            showSizeChanger: false,
            onChange: (page) => setFilter({ ...filter, page }),
          }}
          columns={[
            { title: t('wallet.id'), dataIndex: 'id', width: 90 },
            { title: t('wallet.user'), dataIndex: 'userId', width: 100 },
            { title: t('wallet.coin'), key: 'coin', render: (_: unknown, r) => `${r.coin} / ${r.chain}` },
            { title: t('wallet.amount'), dataIndex: 'amount', align: 'right', render: (v: string) => formatAmount(v) },
            { title: t('wallet.address'), dataIndex: 'address', ellipsis: true },
            {
              title: t('wallet.status'),
              dataIndex: 'status',
              render: (v: WithdrawStatus) => <Tag color={WITHDRAW_COLOR[v]}>{t(`wallet.withdrawStatus.${v}`)}</Tag>,
            },
            {
              title: t('wallet.approvals'),
              key: 'approvals',
              render: (_: unknown, r) => <Tag color={r.approvalsRequired > 1 ? 'purple' : 'default'}>{approvalsText(r)}</Tag>,
            },
            { title: t('wallet.created'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
          ]}
        />
      </Card>
      <WithdrawalDrawer w={open} onClose={() => setOpenId(null)} />
    </Space>
  );
}
