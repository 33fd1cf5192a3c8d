/** The audit log: filters (operator, action, user, time range) over the paged table. */
import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS } from '../../shared/audit/audit-list';
import { AuditTable } from '../../shared/audit/AuditTable';

interface FilterForm {
  operatorId?: string;
  action?: string;
  userId?: string;
  range?: [{ valueOf(): number } | null, { valueOf(): number } | null] | null;
}

export default function AuditPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterForm>();
  const [filter, setFilter] = useState<{ operatorId?: string; action?: string; userId?: string; from?: number; to?: number }>({});
  const apply = (v: FilterForm) =>
    setFilter({
      operatorId: v.operatorId?.trim() || undefined,
      action: v.action || undefined,
      userId: v.userId?.trim() || undefined,
      from: v.range?.[0]?.valueOf(),
      to: v.range?.[1] ? v.range[1].valueOf() + 1 : undefined,
    });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Form<FilterForm> form={form} layout="inline" onFinish={apply}>
          <Form.Item name="operatorId" label={t('audit.operatorId')} rules={[{ pattern: /^[1-9][0-9]{0,17}$/, message: t('audit.operatorId') }]}>
            <Input allowClear style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="action" label={t('audit.action')}>
            <Select allowClear placeholder={t('audit.any')} style={{ width: 190 }} options={AUDIT_ACTIONS.map((a) => ({ value: a, label: a }))} />
          </Form.Item>
          <Form.Item name="userId" label={t('audit.user')} rules={[{ pattern: /^[1-9][0-9]{0,17}$/, message: t('audit.user') }]}>
            <Input allowClear style={{ width: 110 }} />
          </Form.Item>
          <Form.Item name="range" label={t('audit.range')}>
            <DatePicker.RangePicker showTime />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {t('audit.filter')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  setFilter({});
                }}
              >
                {t('audit.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card size="small">
        <AuditTable key={JSON.stringify(filter)} filter={filter} />
      </Card>
    </Space>
  );
}
