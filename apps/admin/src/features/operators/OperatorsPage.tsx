/**
 * Operators (admin role only): the list, a new operator (the generated password and TOTP key shown once), disable or
 * enable, and a TOTP reset (the new key shown once).
 */
import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { OPERATOR_ROLES, type Operator, type OperatorRole } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useSession } from '../../shared/session';
import { useCreateOperator } from './api/create';
import { useSetOperatorDisabled } from './api/disable';
import { useOperators } from './api/list';
import { useResetOperatorTotp } from './api/reset-totp';

interface Shown {
  email: string;
  password?: string;
  totpSecret: string;
  otpauthUrl: string;
}

export default function OperatorsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useSession();
  const list = useOperators();
  const create = useCreateOperator();
  const disable = useSetOperatorDisabled();
  const reset = useResetOperatorTotp();
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [form] = Form.useForm<{ email: string; name: string; role: OperatorRole }>();

  const submit = (v: { email: string; name: string; role: OperatorRole }) =>
    create.mutate(v, {
      onSuccess: (c) => {
        setCreating(false);
        form.resetFields();
        setShown({ email: c.operator.email, password: c.password, totpSecret: c.totpSecret, otpauthUrl: c.otpauthUrl });
      },
    });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Button type="primary" onClick={() => setCreating(true)}>
          {t('operators.create')}
        </Button>
      </Card>
      {(list.error || disable.error || reset.error) && <Alert type="error" showIcon message={(list.error ?? disable.error ?? reset.error)!.message} />}
      <Card size="small">
        <Table<Operator>
          rowKey="id"
          loading={list.isFetching}
          dataSource={list.data ?? []}
          pagination={false}
          columns={[
            { title: 'ID', dataIndex: 'id', width: 70 },
            { title: t('operators.email'), dataIndex: 'email', render: (v: string, r) => (r.id === me?.operator.id ? `${v} (${t('operators.you')})` : v) },
            { title: t('operators.name'), dataIndex: 'name' },
            { title: t('operators.role'), dataIndex: 'role', render: (v: OperatorRole) => <Tag>{t(`roles.${v}`)}</Tag> },
            {
              title: t('operators.status'),
              dataIndex: 'disabled',
              render: (v: boolean) => (v ? <Tag color="red">{t('operators.disabled')}</Tag> : <Tag color="green">{t('operators.enabled')}</Tag>),
            },
            { title: t('operators.createdAt'), dataIndex: 'createdAt', render: (v: number) => formatTime(v) },
            {
              title: '',
              key: 'actions',
              render: (_: unknown, r) =>
                r.id === me?.operator.id ? null : (
                  <Space>
                    <Button size="small" danger={!r.disabled} onClick={() => disable.mutate({ operatorId: r.id, disabled: !r.disabled })}>
                      {r.disabled ? t('operators.enable') : t('operators.disable')}
                    </Button>
                    <Popconfirm
                      title={t('operators.resetTotpConfirm')}
                      okText={t('common.yes')}
                      cancelText={t('common.no')}
                      onConfirm={() =>
                        reset.mutate(r.id, {
                          onSuccess: (k) => {
                            void message.success(t('operators.resetTotp'));
                            setShown({ email: r.email, ...k });
                          },
                        })
                      }
                    >
                      <Button size="small">{t('operators.resetTotp')}</Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      </Card>
      <Modal
        open={creating}
        title={t('operators.create')}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        onOk={() => form.submit()}
        onCancel={() => setCreating(false)}
        okButtonProps={{ loading: create.isPending }}
        destroyOnHidden
      >
        {create.error && <Alert type="error" showIcon message={create.error.message} style={{ marginBottom: 12 }} />}
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ role: 'support' }}>
          <Form.Item name="email" label={t('operators.email')} rules={[{ required: true, type: 'email', message: t('errors.required') }]}>
            <Input />
          </Form.Item>
          <Form.Item name="name" label={t('operators.name')} rules={[{ required: true, whitespace: true, max: 64, message: t('errors.required') }]}>
            <Input maxLength={64} />
          </Form.Item>
          <Form.Item name="role" label={t('operators.role')} rules={[{ required: true }]}>
            <Select options={OPERATOR_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={shown !== null}
        title={t('operators.credentials')}
        onOk={() => setShown(null)}
        onCancel={() => setShown(null)}
        okText={t('operators.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Typography.Paragraph type="warning">{t('operators.credentialsHelp')}</Typography.Paragraph>
        {shown && (
          <Descriptions bordered size="small" column={1}>
            <Descriptions.Item label={t('operators.email')}>{shown.email}</Descriptions.Item>
            {shown.password && (
              <Descriptions.Item label={t('operators.password')}>
                <Typography.Text copyable code>
                  {shown.password}
                </Typography.Text>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('operators.totpKey')}>
              <Typography.Text copyable code>
                {shown.totpSecret}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('operators.otpauth')}>
              <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
                {shown.otpauthUrl}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Modal>
    </Space>
  );
}
