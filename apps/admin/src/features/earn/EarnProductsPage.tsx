/**
 * Savings products (the app's /mortgage): every product with its coin, term, annual rate, limits, quotas,
 * principal locked now and the early-redemption rule. An operator with `wallet_decide` (finance, admin) creates a
 * product or changes one (rate and term apply to new locks only; running locks keep theirs); the server writes the
 * audit row with the change.
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Form, Input, InputNumber, Modal, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AdminEarnProduct, SaveEarnProductBody } from '@exchange/api';
import { formatAmount } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useEarnProducts, useSaveProduct } from './api/products';

const nowrap = { onCell: () => ({ style: { whiteSpace: 'nowrap' as const } }) };
const EMPTY: SaveEarnProductBody = {
  coin: 'USDT',
  termDays: 7,
  apr: '5',
  minAmount: '10',
  maxAmount: '10000',
  userQuota: '50000',
  totalQuota: '1000000',
  earlyRedeem: 'FORFEIT_INTEREST',
  status: 'ON',
};

export default function EarnProductsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const canEdit = useCan('wallet_decide');
  const q = useEarnProducts();
  const save = useSaveProduct();
  const [editing, setEditing] = useState<SaveEarnProductBody | null>(null);
  const [form] = Form.useForm<SaveEarnProductBody>();
  const open = (p: SaveEarnProductBody) => {
    setEditing(p);
    form.setFieldsValue(p);
  };
  const submit = async () => {
    const v = await form.validateFields();
    save.mutate(
      { ...v, ...(editing?.productId ? { productId: editing.productId } : {}) },
      {
        onSuccess: (r) => {
          void message.success(t('earn.saved', { id: r.productId }));
          setEditing(null);
        },
      },
    );
  };
  const trim = (v: string) => formatAmount(v);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="info" showIcon message={t('earn.hint')} />
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card
        size="small"
        title={t('earn.products')}
        extra={
          canEdit && (
            <Button type="primary" onClick={() => open(EMPTY)}>
              {t('earn.create')}
            </Button>
          )
        }
      >
        <Table<AdminEarnProduct>
          rowKey="productId"
          size="middle"
          loading={q.isFetching}
          dataSource={q.data ?? []}
          pagination={false}
          columns={[
            { title: t('earn.id'), dataIndex: 'productId', width: 60 },
            { title: t('earn.coin'), dataIndex: 'coin' },
            { title: t('earn.term'), dataIndex: 'termDays', align: 'right', render: (v: number) => t('earn.days', { n: v }) },
            { title: t('earn.apr'), dataIndex: 'apr', align: 'right', render: (v: string) => `${v}%` },
            { title: t('earn.limits'), key: 'limits', align: 'right', ...nowrap, render: (_: unknown, r) => `${trim(r.minAmount)} - ${trim(r.maxAmount)}` },
            { title: t('earn.userQuota'), dataIndex: 'userQuota', align: 'right', ...nowrap, render: trim },
            {
              title: t('earn.lockedTotal'),
              key: 'locked',
              align: 'right',
              ...nowrap,
              render: (_: unknown, r) => `${trim(r.lockedTotal)} / ${trim(r.totalQuota)}`,
            },
            {
              title: t('earn.early'),
              dataIndex: 'earlyRedeem',
              render: (v: AdminEarnProduct['earlyRedeem']) => <Tag color={v === 'FORFEIT_INTEREST' ? 'green' : 'default'}>{t(`earn.earlyRule.${v}`)}</Tag>,
            },
            {
              title: t('earn.status'),
              dataIndex: 'status',
              render: (v: AdminEarnProduct['status']) => <Tag color={v === 'ON' ? 'blue' : 'default'}>{t(`earn.statuses.${v}`)}</Tag>,
            },
            ...(canEdit
              ? [
                  {
                    title: '',
                    key: 'actions',
                    render: (_: unknown, r: AdminEarnProduct) => (
                      <Button
                        size="small"
                        onClick={() =>
                          open({
                            productId: r.productId,
                            coin: r.coin,
                            termDays: r.termDays,
                            apr: r.apr,
                            minAmount: trim(r.minAmount).replace(/,/g, ''),
                            maxAmount: trim(r.maxAmount).replace(/,/g, ''),
                            userQuota: trim(r.userQuota).replace(/,/g, ''),
                            totalQuota: trim(r.totalQuota).replace(/,/g, ''),
                            earlyRedeem: r.earlyRedeem,
                            status: r.status,
                          })
                        }
                      >
                        {t('earn.edit')}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Card>
      <Modal
        open={editing !== null}
        title={editing?.productId ? t('earn.editTitle', { id: editing.productId }) : t('earn.create')}
        okText={t('earn.save')}
        confirmLoading={save.isPending}
        onOk={() => void submit()}
        onCancel={() => setEditing(null)}
        destroyOnClose
      >
        <Form form={form} layout="vertical" requiredMark={false}>
          <Form.Item name="coin" label={t('earn.coin')} rules={[{ required: true, pattern: /^[A-Z0-9]{2,12}$/, message: t('errors.required') }]}>
            <Input disabled={!!editing?.productId} />
          </Form.Item>
          <Space>
            <Form.Item name="termDays" label={t('earn.termDays')} rules={[{ required: true }]}>
              <InputNumber min={1} max={365} precision={0} />
            </Form.Item>
            <Form.Item name="apr" label={t('earn.aprPercent')} rules={[{ required: true, pattern: /^[0-9]{1,3}(\.[0-9]{1,4})?$/, message: t('earn.aprHelp') }]}>
              <Input />
            </Form.Item>
          </Space>
          <Space>
            <Form.Item name="minAmount" label={t('earn.minAmount')} rules={[{ required: true }]}>
              <Input />
            </Form.Item>
            <Form.Item name="maxAmount" label={t('earn.maxAmount')} rules={[{ required: true }]}>
              <Input />
            </Form.Item>
          </Space>
          <Space>
            <Form.Item name="userQuota" label={t('earn.userQuota')} rules={[{ required: true }]}>
              <Input />
            </Form.Item>
            <Form.Item name="totalQuota" label={t('earn.totalQuota')} rules={[{ required: true }]}>
              <Input />
            </Form.Item>
          </Space>
          <Form.Item name="earlyRedeem" label={t('earn.early')}>
            <Select options={(['FORFEIT_INTEREST', 'NOT_ALLOWED'] as const).map((v) => ({ value: v, label: t(`earn.earlyRule.${v}`) }))} />
          </Form.Item>
          <Form.Item name="status" label={t('earn.status')}>
            <Select options={(['ON', 'OFF'] as const).map((v) => ({ value: v, label: t(`earn.statuses.${v}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
