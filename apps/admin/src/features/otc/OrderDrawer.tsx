/**
 * One OTC order as an operator judges an appeal: both sides (ids, nicknames, real names), the amounts, the seller's
 * payment methods, what the buyer said was paid with and the proof image, the appeal (by whom, reason, description,
 * evidence images, the outcome once resolved) and the full chat. For an order in APPEAL, an operator who may resolve (OTC_RESOLVE: finance, admin)
 * types the reason and resolves: release to the buyer or return to the seller, after a dialog that states exactly what
 * moves ("Release 100.00000000 USDT to buyer Bob (10000002)").
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Col, Descriptions, Drawer, Empty, Image, Input, List, Row, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { OTC_RESOLVE } from './otc-permissions';
import { useOrderDetail, useResolveAppeal } from './api/order-detail';
import { useOtcImage } from './api/image';
import type { AdminOtcOrderDetail, OtcChatMessage } from './api/types';
import { ORDER_COLOR, partyName, resolutionText } from './otc-format';

function OtcImage({ url, alt }: { url: string; alt: string }) {
  const { src, error } = useOtcImage(url);
  if (error) return <Alert type="error" message={error.message} />;
  if (!src) return <Spin />;
  return <Image src={src} width={120} height={120} style={{ objectFit: 'cover' }} alt={alt} />;
}

function PaymentText({ o, id }: { o: AdminOtcOrderDetail; id: string }) {
  const { t } = useTranslation();
  const p = o.paymentMethods.find((m) => m.id === id);
  if (!p) return <>{id || '-'}</>;
  const where = p.payType === 'BANK' ? [p.bankName, p.branch, p.cardNo].filter(Boolean).join(' · ') : p.account;
  return (
    <>
      <Tag>{t(`otc.payType.${p.payType}`)}</Tag>
      {p.realName} · {where}
    </>
  );
}

const FROM_COLOR: Record<OtcChatMessage['from'], string> = { BUYER: 'blue', SELLER: 'orange', OPERATOR: 'purple', SYSTEM: 'default' };

function Chat({ messages }: { messages: OtcChatMessage[] }) {
  const { t } = useTranslation();
  if (messages.length === 0) return <Empty description={t('otc.noMessages')} />;
  return (
    <List
      size="small"
      bordered
      style={{ maxHeight: 'calc(100vh - 150px)', overflow: 'auto' }}
      dataSource={messages}
      renderItem={(m) => (
        <List.Item key={m.id} style={{ display: 'block' }}>
          <Space size={4}>
            <Tag color={FROM_COLOR[m.from]}>{t(`otc.from.${m.from}`)}</Tag>
            <Typography.Text type="secondary">{formatTime(m.createdAt)}</Typography.Text>
          </Space>
          <div style={{ marginTop: 4 }}>
            {m.imageUrl ? (
              <OtcImage url={m.imageUrl} alt={t('otc.chatImage')} />
            ) : m.from === 'SYSTEM' ? (
              t(`otc.chatSystem.${m.text}`, { defaultValue: m.text })
            ) : (
              m.text
            )}
          </div>
        </List.Item>
      )}
    />
  );
}

function Resolve({ o }: { o: AdminOtcOrderDetail }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const resolve = useResolveAppeal();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const ask = (outcome: 'RELEASE' | 'RETURN') => {
    const r = reason.trim();
    if (!r) {
      setMissing(true);
      return;
    }
    setMissing(false);
    void modal.confirm({
      title: resolutionText(t, o, outcome),
      content: t('otc.resolveContent', { reason: r }),
      okText: t(outcome === 'RELEASE' ? 'otc.release' : 'otc.return'),
      okButtonProps: { danger: outcome === 'RETURN' },
      cancelText: t('common.cancel'),
      onOk: () =>
        resolve.mutateAsync({ orderId: o.orderId, outcome, reason: r }).then(() => {
          void message.success(t('otc.resolved'));
          setReason('');
        }),
    });
  };
  return (
    <Card size="small" title={t('otc.resolveTitle')}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Input.TextArea
          aria-label={t('otc.resolution')}
          placeholder={t('otc.resolutionHelp')}
          rows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          status={missing ? 'error' : undefined}
        />
        {missing && <Typography.Text type="danger">{t('errors.required')}</Typography.Text>}
        <Space>
          <Button type="primary" onClick={() => ask('RELEASE')} loading={resolve.isPending && resolve.variables?.outcome === 'RELEASE'}>
            {t('otc.releaseToBuyer')}
          </Button>
          <Button danger onClick={() => ask('RETURN')} loading={resolve.isPending && resolve.variables?.outcome === 'RETURN'}>
            {t('otc.returnToSeller')}
          </Button>
        </Space>
        {resolve.error && <Alert type="error" showIcon message={resolve.error.message} />}
      </Space>
    </Card>
  );
}

/** The drawer of order `orderId` (closed when null). */
export function OrderDrawer({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const canDecide = useCan(OTC_RESOLVE);
  const q = useOrderDetail(orderId);
  const o = q.data;
  const a = o?.appeal ?? null;
  return (
    <Drawer open={orderId !== null} onClose={onClose} width={1120} title={t('otc.orderTitle', { id: orderId ?? '' })} destroyOnHidden>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      {!o && !q.error && <Spin />}
      {o && (
        <Row gutter={16}>
          <Col span={16}>
            <Space direction="vertical" size="middle" style={{ width: '100%' }}>
              <Descriptions bordered size="small" column={2}>
                <Descriptions.Item label={t('otc.state')}>
                  <Tag color={ORDER_COLOR[o.state]}>{t(`otc.orderState.${o.state}`)}</Tag>
                  {o.endReason && <Tag>{t(`otc.endReason.${o.endReason}`)}</Tag>}
                </Descriptions.Item>
                <Descriptions.Item label={t('otc.adId')}>{o.adId}</Descriptions.Item>
                <Descriptions.Item label={t('otc.quantity')}>
                  {o.quantity} {o.coin}
                </Descriptions.Item>
                <Descriptions.Item label={t('otc.price')}>
                  {o.price} {o.fiat}
                </Descriptions.Item>
                <Descriptions.Item label={t('otc.fiatAmount')}>
                  {o.fiatAmount} {o.fiat}
                </Descriptions.Item>
                <Descriptions.Item label={t('otc.createdAt')}>{formatTime(o.createdAt)}</Descriptions.Item>
                <Descriptions.Item label={t('otc.buyer')}>{partyName(o.buyerNickName, o.buyerId)}</Descriptions.Item>
                <Descriptions.Item label={t('otc.buyerRealName')}>{o.buyerRealName || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('otc.seller')}>{partyName(o.sellerNickName, o.sellerId)}</Descriptions.Item>
                <Descriptions.Item label={t('otc.sellerRealName')}>{o.sellerRealName || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('otc.maker')}>{o.makerId === o.sellerId ? t('otc.seller') : t('otc.buyer')}</Descriptions.Item>
                <Descriptions.Item label={t('otc.paidAt')}>{formatTime(o.paidAt) || '-'}</Descriptions.Item>
                <Descriptions.Item label={t('otc.paymentMethods')} span={2}>
                  <Space direction="vertical" size={2}>
                    {o.paymentMethods.length === 0 ? '-' : o.paymentMethods.map((p) => <PaymentText key={p.id} o={o} id={p.id} />)}
                  </Space>
                </Descriptions.Item>
                <Descriptions.Item label={t('otc.paidWith')}>{o.paidWith ? <PaymentText o={o} id={o.paidWith} /> : '-'}</Descriptions.Item>
                <Descriptions.Item label={t('otc.proof')}>{o.proofImageUrl ? <OtcImage url={o.proofImageUrl} alt={t('otc.proof')} /> : '-'}</Descriptions.Item>
                {o.remarks ? (
                  <Descriptions.Item label={t('otc.remarks')} span={2}>
                    {o.remarks}
                  </Descriptions.Item>
                ) : null}
              </Descriptions>
              {a && (
                <Card size="small" title={t('otc.appeal')}>
                  <Descriptions size="small" column={2}>
                    <Descriptions.Item label={t('otc.appealBy')}>
                      {t(`otc.side.${a.by}`)} · {a.by === 'BUYER' ? partyName(o.buyerNickName, o.buyerId) : partyName(o.sellerNickName, o.sellerId)}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('otc.appealReason')}>{t(`otc.appealReasons.${a.reason}`, { defaultValue: a.reason })}</Descriptions.Item>
                    <Descriptions.Item label={t('otc.description')} span={2}>
                      {a.description}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('otc.appealedAt')}>{formatTime(a.createdAt)}</Descriptions.Item>
                    {a.outcome ? (
                      <Descriptions.Item label={t('otc.outcome')}>
                        {t(`otc.outcomes.${a.outcome}`)} · {a.resolution} · {formatTime(a.resolvedAt)}
                      </Descriptions.Item>
                    ) : null}
                  </Descriptions>
                  {a.images.length > 0 && (
                    <Image.PreviewGroup>
                      <Space wrap>
                        {a.images.map((u, i) => (
                          <OtcImage key={u} url={u} alt={t('otc.evidence', { n: i + 1 })} />
                        ))}
                      </Space>
                    </Image.PreviewGroup>
                  )}
                </Card>
              )}
              {o.state === 'APPEAL' && !canDecide && <Alert type="info" showIcon message={t('otc.noPermission')} />}
              {o.state === 'APPEAL' && canDecide && <Resolve o={o} />}
            </Space>
          </Col>
          <Col span={8}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('otc.chat')}
            </Typography.Title>
            <Chat messages={o.messages} />
          </Col>
        </Row>
      )}
    </Drawer>
  );
}
