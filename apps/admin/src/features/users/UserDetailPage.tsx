/**
 * One user: profile (with the frozen state and freeze/unfreeze for compliance and admin), KYC applications, sessions,
 * balances (read from the engine, read-only), API keys (revoke with a reason) and the audit rows about this
 * user, in tabs.
 */
import { useState } from 'react';
import { App, Alert, Button, Card, Descriptions, Form, Input, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { AdminUserDetail } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { AuditTable } from '../../shared/audit/AuditTable';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useUserDetail } from './api/detail';
import { useSetFrozen } from './api/freeze';
import { ApiKeysSection } from './ApiKeysSection';

function FreezeButton({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const mutation = useSetFrozen();
  const frozen = detail.user.frozen;
  const submit = ({ reason }: { reason: string }) =>
    mutation.mutate(
      { userId: detail.user.userId, frozen: !frozen, reason },
      {
        onSuccess: () => {
          void message.success(t(frozen ? 'detail.unfrozenDone' : 'detail.frozenDone'));
          setOpen(false);
          form.resetFields();
        },
      },
    );
  return (
    <>
      <Button danger={!frozen} onClick={() => setOpen(true)}>
        {t(frozen ? 'detail.unfreeze' : 'detail.freeze')}
      </Button>
      <Modal
        open={open}
        title={t(frozen ? 'detail.unfreezeTitle' : 'detail.freezeTitle')}
        okText={t(frozen ? 'detail.unfreeze' : 'detail.freeze')}
        okButtonProps={{ danger: !frozen, loading: mutation.isPending }}
        cancelText={t('common.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        {!frozen && <Typography.Paragraph type="secondary">{t('detail.freezeHelp')}</Typography.Paragraph>}
        {mutation.error && <Alert type="error" showIcon message={mutation.error.message} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="reason" label={t('detail.reason')} rules={[{ required: true, whitespace: true, max: 500, message: t('errors.required') }]}>
            <Input.TextArea rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

export default function UserDetailPage() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const q = useUserDetail(userId);
  const canFreeze = useCan('user_freeze');
  if (q.error) return <Alert type="error" showIcon message={q.error.message} />;
  const d = q.data;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Link to="/users">← {t('detail.back')}</Link>
      <Card loading={!d} size="small">
        {d && (
          <Tabs
            items={[
              {
                key: 'profile',
                label: t('detail.profile'),
                children: (
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Descriptions bordered size="small" column={2}>
                      <Descriptions.Item label={t('users.uid')}>{d.user.uuid}</Descriptions.Item>
                      <Descriptions.Item label={t('users.userId')}>{d.user.userId}</Descriptions.Item>
                      <Descriptions.Item label={t('users.mail')}>{d.user.mail}</Descriptions.Item>
                      <Descriptions.Item label={t('users.phone')}>{d.user.phone ? `+${d.user.areaCode} ${d.user.phone}` : ''}</Descriptions.Item>
                      <Descriptions.Item label={t('users.nickName')}>{d.user.nickName}</Descriptions.Item>
                      <Descriptions.Item label={t('users.kyc')}>
                        {d.user.cardState ? t(`kyc.${d.user.cardState}`, { defaultValue: d.user.cardState }) : '-'}
                      </Descriptions.Item>
                      <Descriptions.Item label={t('detail.createdAt')}>{formatTime(d.createdAt)}</Descriptions.Item>
                      <Descriptions.Item label={t('detail.invitedBy')}>{d.invitedBy}</Descriptions.Item>
                      <Descriptions.Item label={t('users.status')}>
                        {d.user.frozen ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>}
                      </Descriptions.Item>
                      <Descriptions.Item label={t('detail.frozenReason')}>{d.frozenReason}</Descriptions.Item>
                    </Descriptions>
                    {canFreeze && <FreezeButton detail={d} />}
                  </Space>
                ),
              },
              {
                key: 'kyc',
                label: t('detail.kyc'),
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={d.kyc}
                    columns={[
                      { title: t('kyc.id'), dataIndex: 'id' },
                      { title: t('detail.level'), dataIndex: 'level', render: (v: string) => t(`kyc.${v}`, { defaultValue: v }) },
                      { title: t('detail.state'), dataIndex: 'state', render: (v: string) => t(`kyc.${v}`, { defaultValue: v }) },
                      { title: t('detail.submitted'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
                      {
                        title: t('detail.rejectReason'),
                        key: 'reason',
                        render: (_: unknown, r: AdminUserDetail['kyc'][number]) => [r.reasonZh, r.reasonEn].filter(Boolean).join(' / '),
                      },
                    ]}
                  />
                ),
              },
              {
                key: 'sessions',
                label: t('detail.sessions'),
                children: (
                  <Table
                    rowKey="id"
                    size="small"
                    pagination={false}
                    dataSource={d.sessions}
                    columns={[
                      { title: 'ID', dataIndex: 'id' },
                      { title: t('detail.sessionStarted'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
                      { title: t('detail.sessionLastSeen'), dataIndex: 'lastSeenAt', render: (v: number) => formatTime(v) },
                      { title: t('detail.sessionExpires'), dataIndex: 'expiresAt', render: (v: number) => formatTime(v) },
                      { title: 'IP', dataIndex: 'ip' },
                      { title: t('detail.sessionDevice'), dataIndex: 'userAgent', ellipsis: true },
                      {
                        title: t('detail.sessionState'),
                        dataIndex: 'revoked',
                        render: (v: boolean) => (v ? <Tag>{t('detail.ended')}</Tag> : <Tag color="green">{t('detail.live')}</Tag>),
                      },
                    ]}
                  />
                ),
              },
              {
                key: 'balances',
                label: t('detail.balances'),
                children: (
                  <Table
                    rowKey={(r) => `${r.account}-${r.asset}`}
                    size="small"
                    pagination={false}
                    dataSource={d.balances}
                    columns={[
                      { title: t('detail.account'), dataIndex: 'account' },
                      { title: t('detail.asset'), dataIndex: 'asset' },
                      { title: t('detail.available'), dataIndex: 'available', align: 'right' },
                      { title: t('detail.held'), dataIndex: 'frozen', align: 'right' },
                    ]}
                  />
                ),
              },
              { key: 'apiKeys', label: t('apiKeys.title'), children: <ApiKeysSection userId={d.user.userId} /> },
              { key: 'audit', label: t('detail.audit'), children: <AuditTable filter={{ userId: d.user.userId }} /> },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
