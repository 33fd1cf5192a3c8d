/**
 * The review drawer of one KYC application: the submitted fields, the images (fetched with the operator's token), and
 * for a pending application with the kyc_decide permission: approve, or reject with a reason in zh and en.
 */
import { Alert, App, Button, Descriptions, Drawer, Empty, Form, Image, Input, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format';
import { useCan } from '../../shared/permissions';
import { useKycDecide } from './api/decide';
import { useKycDetail } from './api/detail';
import { useKycImage } from './api/image';

function KycImage({ imageId }: { imageId: string }) {
  const { url, error } = useKycImage(imageId);
  if (error) return <Alert type="error" message={error.message} />;
  if (!url) return <Spin />;
  return <Image src={url} width={200} alt={`image ${imageId}`} />;
}

export function ReviewDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const q = useKycDetail(id);
  const decide = useKycDecide();
  const canDecide = useCan('kyc_decide');
  const [form] = Form.useForm<{ reasonZh: string; reasonEn: string }>();
  const a = q.data;
  const pending = a?.application.state === 'PENDING';
  const approve = () => id && decide.mutate({ id, approve: true }, { onSuccess: () => void message.success(t('kyc.approved')) });
  const reject = (v: { reasonZh: string; reasonEn: string }) =>
    id &&
    decide.mutate(
      { id, approve: false, reasonZh: v.reasonZh.trim(), reasonEn: v.reasonEn.trim() },
      {
        onSuccess: () => {
          void message.success(t('kyc.rejected'));
          form.resetFields();
        },
      },
    );
  return (
    <Drawer open={id !== null} onClose={onClose} width={720} title={t('kyc.drawerTitle', { id: id ?? '' })} destroyOnHidden>
      {q.error && <Alert type="error" showIcon message={q.error.message} />}
      {!a && !q.error && <Spin />}
      {a && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions bordered size="small" column={2}>
            <Descriptions.Item label={t('kyc.user')}>{a.application.userId}</Descriptions.Item>
            <Descriptions.Item label={t('kyc.level')}>{t(`kyc.${a.application.level}`, { defaultValue: a.application.level })}</Descriptions.Item>
            <Descriptions.Item label={t('kyc.state')}>
              <Tag color={a.application.state === 'PENDING' ? 'gold' : a.application.state === 'PASS' ? 'green' : 'red'}>
                {t(`kyc.${a.application.state}`, { defaultValue: a.application.state })}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('kyc.submitted')}>{formatTime(a.application.createdAt)}</Descriptions.Item>
            {Object.entries(a.fields).map(([k, v]) => (
              <Descriptions.Item key={k} label={t(`kyc.fields.${k}`, { defaultValue: k })}>
                {k === 'idType' ? t(`kyc.idTypes.${v}`, { defaultValue: v }) : k === 'guardianConsent' ? t(v === 'true' ? 'common.yes' : 'common.no') : v}
              </Descriptions.Item>
            ))}
            {(a.reasonZh || a.reasonEn) && (
              <Descriptions.Item label={t('detail.rejectReason')} span={2}>
                {a.reasonZh} / {a.reasonEn}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Title level={5}>{t('kyc.images')}</Typography.Title>
          {a.imageIds.length === 0 ? (
            <Empty description={t('kyc.noImages')} />
          ) : (
            <Image.PreviewGroup>
              <Space wrap>
                {a.imageIds.map((img) => (
                  <KycImage key={img} imageId={img} />
                ))}
              </Space>
            </Image.PreviewGroup>
          )}
          {decide.error && <Alert type="error" showIcon message={decide.error.message} />}
          {pending && canDecide && (
            <Space direction="vertical" style={{ width: '100%' }}>
              <Button type="primary" onClick={approve} loading={decide.isPending && decide.variables?.approve === true}>
                {t('kyc.approve')}
              </Button>
              <Form form={form} layout="vertical" onFinish={reject}>
                <Form.Item name="reasonZh" label={t('kyc.reasonZh')} rules={[{ required: true, whitespace: true, max: 200, message: t('errors.required') }]}>
                  <Input.TextArea rows={2} maxLength={200} />
                </Form.Item>
                <Form.Item
                  name="reasonEn"
                  label={t('kyc.reasonEn')}
                  extra={t('kyc.reasonHelp')}
                  rules={[{ required: true, whitespace: true, max: 200, message: t('errors.required') }]}
                >
                  <Input.TextArea rows={2} maxLength={200} />
                </Form.Item>
                <Button danger htmlType="submit" loading={decide.isPending && decide.variables?.approve === false}>
                  {t('kyc.reject')}
                </Button>
              </Form>
            </Space>
          )}
        </Space>
      )}
    </Drawer>
  );
}
