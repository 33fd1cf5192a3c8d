/**
 * The console's OTC confirm dialog for an action with a reason (approve, reject, suspend, reinstate, close an ad):
 * the title says what happens, the reason is typed (required unless `optional`) and sent with OK.
 */
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** `title` = what happens; `onOk` gets the trimmed reason; `error` = the last refusal of the server. */
export function ReasonModal(props: {
  open: boolean;
  title: string;
  okText: string;
  danger?: boolean;
  optional?: boolean;
  loading: boolean;
  error?: string;
  onOk: (reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  return (
    <Modal
      open={props.open}
      title={props.title}
      okText={props.okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: props.danger, loading: props.loading }}
      onOk={() => form.submit()}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => props.onOk((v.reason ?? '').trim())}>
        <Form.Item
          name="reason"
          label={t('otc.reason')}
          extra={t('otc.reasonHelp')}
          rules={props.optional ? [] : [{ required: true, whitespace: true, message: t('errors.required') }]}
        >
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
      {props.error && <Alert type="error" showIcon message={props.error} />}
    </Modal>
  );
}
