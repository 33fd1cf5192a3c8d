/**
 * The user detail's API keys: every key of the user (label, API key, type, permissions, IP whitelist or
 * "unrestricted", created, last used) and, for operators who may freeze users (compliance, admin; the server checks
 * again), revoke with a reason, audited by the server as api_key_delete.
 */
import { useEffect, useRef, useState } from 'react';
import { App, Alert, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ApiKeyView } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useUserApiKeys } from './api/api-keys';
import { useRevokeApiKey } from './api/revoke-api-key';

/** Most characters of a revoke reason (AdminDeleteApiKeyBody.reason). */
const REASON_MAX = 200;

function RevokeButton({ k }: { k: ApiKeyView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const mutation = useRevokeApiKey();
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // The revocation refetches the user's keys, which removes this row and unmounts this button, sometimes before
  // TanStack Query calls a `mutate` call's own onSuccess (it skips those once the caller is unmounted): the message
  // then never showed. The awaited promise settles whether this row is still there or not, and the message lives in
  // the App's holder above it. A failure is shown in the dialog from `mutation.error`.
  const submit = async ({ reason }: { reason: string }) => {
    try {
      await mutation.mutateAsync({ id: k.id, reason: reason.trim() });
    } catch {
      return;
    }
    void message.success(t('apiKeys.revoked'));
    if (!mounted.current) return;
    setOpen(false);
    form.resetFields();
  };
  return (
    <>
      <Button size="small" danger onClick={() => setOpen(true)}>
        {t('apiKeys.revoke')}
      </Button>
      <Modal
        open={open}
        title={t('apiKeys.revokeTitle', { label: k.label })}
        okText={t('apiKeys.revoke')}
        okButtonProps={{ danger: true, loading: mutation.isPending }}
        cancelText={t('common.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('apiKeys.revokeHelp')}</Typography.Paragraph>
        {mutation.error && <Alert type="error" showIcon message={mutation.error.message} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="reason" label={t('detail.reason')} rules={[{ required: true, whitespace: true, max: REASON_MAX, message: t('errors.required') }]}>
            <Input.TextArea rows={3} maxLength={REASON_MAX} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** The section: the table of `userId`'s keys. */
export function ApiKeysSection({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const q = useUserApiKeys(userId);
  const canRevoke = useCan('user_freeze');
  if (q.error) return <Alert type="error" showIcon message={q.error.message} />;
  return (
    <Table<ApiKeyView>
      rowKey="id"
      size="small"
      pagination={false}
      scroll={{ x: 1000 }}
      loading={q.isLoading}
      dataSource={q.data ?? []}
      locale={{ emptyText: t('apiKeys.none') }}
      columns={[
        { title: t('apiKeys.label'), dataIndex: 'label', width: 110, ellipsis: true },
        {
          title: t('apiKeys.apiKey'),
          dataIndex: 'apiKey',
          width: 160,
          render: (v: string) => (
            <Typography.Text code copyable={{ text: v }} title={v}>
              {`${v.slice(0, 8)}…${v.slice(-6)}`}
            </Typography.Text>
          ),
        },
        { title: t('apiKeys.type'), dataIndex: 'keyType', width: 80, render: (v: ApiKeyView['keyType']) => t(`apiKeys.${v}`) },
        {
          title: t('apiKeys.permissions'),
          key: 'permissions',
          width: 150,
          render: (_: unknown, k: ApiKeyView) => (
            <Space size={4} wrap>
              {k.read && <Tag>{t('apiKeys.read')}</Tag>}
              {k.spotTrade && <Tag color="green">{t('apiKeys.spotTrade')}</Tag>}
              {k.futuresTrade && <Tag color="blue">{t('apiKeys.futuresTrade')}</Tag>}
              {k.withdraw && <Tag color="red">{t('apiKeys.withdraw')}</Tag>}
            </Space>
          ),
        },
        {
          title: t('apiKeys.ipWhitelist'),
          dataIndex: 'ipWhitelist',
          width: 130,
          render: (v: string[]) => (v.length ? v.join(', ') : <Typography.Text type="warning">{t('apiKeys.unrestricted')}</Typography.Text>),
        },
        { title: t('apiKeys.createdAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
        { title: t('apiKeys.lastUsedAt'), dataIndex: 'lastUsedAt', render: (v: number | null) => (v ? formatTime(v) : t('apiKeys.never')) },
        ...(canRevoke ? [{ title: '', key: 'action', width: 90, render: (_: unknown, k: ApiKeyView) => <RevokeButton k={k} /> }] : []),
      ]}
    />
  );
}
