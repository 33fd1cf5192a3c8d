/** The console's login: e-mail, password and the 6-digit TOTP code in one form. */
import { Alert, Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageSelect } from '../../shared/LanguageSelect';
import { useLogin, type LoginInput } from './api/login';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const onFinish = (v: LoginInput) => login.mutate(v, { onSuccess: () => void navigate('/users', { replace: true }) });
  return (
    <div className="login-page">
      <Card className="login-card">
        <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start">
          <Typography.Title level={3}>{t('app.title')}</Typography.Title>
          <LanguageSelect />
        </Space>
        <Typography.Paragraph type="secondary">{t('login.title')}</Typography.Paragraph>
        {login.error && <Alert type="error" showIcon message={login.error.message} style={{ marginBottom: 16 }} />}
        <Form<LoginInput> layout="vertical" onFinish={onFinish} requiredMark={false}>
          <Form.Item name="email" label={t('login.email')} rules={[{ required: true, message: t('errors.required') }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('errors.required') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="totp"
            label={t('login.totp')}
            extra={t('login.totpHelp')}
            rules={[{ required: true, pattern: /^[0-9]{6}$/, message: t('login.totpHelp') }]}
          >
            <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
