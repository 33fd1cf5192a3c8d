/**
 * OTC appeals: the orders in APPEAL (the queue, by default) or any state, of any user; an order id opens
 * that order directly. A row opens the order drawer (OrderDrawer: both sides, payment, evidence, chat, resolution).
 */
import { useState } from 'react';
import { Alert, Card, Input, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatTime } from '../../shared/format';
import { useOrders, type OrdersFilter } from './api/orders';
import type { AdminOtcOrderRow, OtcOrderState } from './api/types';
import { OrderDrawer } from './OrderDrawer';
import { OtcFilter } from './OtcFilter';
import { ORDER_COLOR, partyName } from './otc-format';

const STATES: OtcOrderState[] = ['APPEAL', 'PENDING_PAYMENT', 'PAID', 'COMPLETED', 'CANCELLED'];

export default function AppealsPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<OrdersFilter>({ state: 'APPEAL', userId: '', page: 1 });
  const [openId, setOpenId] = useState<string | null>(null);
  const [badId, setBadId] = useState(false);
  const q = useOrders(filter);
  const openOrder = (v: string) => {
    const id = v.trim();
    if (!id) return;
    const ok = /^[0-9]{1,20}$/.test(id);
    setBadId(!ok);
    if (ok) setOpenId(id);
  };
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <OtcFilter
        label={t('otc.state')}
        states={STATES}
        stateLabel={(s) => t(`otc.orderState.${s}`)}
        value={filter.state}
        onChange={(v) => setFilter({ ...filter, state: v, page: 1 })}
        userId={filter.userId}
        onUserId={(v) => setFilter({ ...filter, userId: v, page: 1 })}
        onRefresh={() => void q.refetch()}
      >
        <Input.Search
          aria-label={t('otc.orderId')}
          placeholder={t('otc.orderId')}
          enterButton={t('otc.openOrder')}
          style={{ width: 260 }}
          onSearch={openOrder}
          status={badId ? 'error' : undefined}
        />
      </OtcFilter>
      {badId && <Alert type="error" showIcon message={t('otc.badOrderId')} />}
      {q.error && <Alert type="warning" showIcon message={q.error.message} />}
      <Card size="small">
        <Table<AdminOtcOrderRow>
          rowKey="orderId"
          loading={q.isFetching}
          dataSource={q.data?.records ?? []}
          onRow={(r) => ({ onClick: () => setOpenId(r.orderId), style: { cursor: 'pointer' } })}
          pagination={{
            current: filter.page,
            total: q.data?.total ?? 0,
            showTotal: (n) => t('common.total', { count: n }),
            showSizeChanger: false,
            onChange: (page) => setFilter({ ...filter, page }),
          }}
          columns={[
            { title: t('otc.orderId'), dataIndex: 'orderId', width: 100 },
            { title: t('otc.buyer'), key: 'buyer', render: (_: unknown, r) => partyName(r.buyerNickName, r.buyerId) },
            { title: t('otc.seller'), key: 'seller', render: (_: unknown, r) => partyName(r.sellerNickName, r.sellerId) },
            { title: t('otc.quantity'), key: 'qty', align: 'right', render: (_: unknown, r) => `${formatAmount(r.quantity)} ${r.coin}` },
            { title: t('otc.fiatAmount'), key: 'fiat', align: 'right', render: (_: unknown, r) => `${r.fiatAmount} ${r.fiat}` },
            { title: t('otc.price'), dataIndex: 'price', align: 'right' },
            { title: t('otc.state'), dataIndex: 'state', render: (v: OtcOrderState) => <Tag color={ORDER_COLOR[v]}>{t(`otc.orderState.${v}`)}</Tag> },
            { title: t('otc.updatedAt'), dataIndex: 'updatedAt', onCell: () => ({ style: { whiteSpace: 'nowrap' } }), render: (v: number) => formatTime(v) },
          ]}
        />
      </Card>
      <OrderDrawer orderId={openId} onClose={() => setOpenId(null)} />
    </Space>
  );
}
