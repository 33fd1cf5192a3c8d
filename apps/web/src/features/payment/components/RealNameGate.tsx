/**
 * Payment methods need basic identity verification (spec sections 2 and 6; the server answers real_name_required):
 * logged out, the log-in prompt; not verified, a prompt leading to /realname (under review: says so); verified,
 * `children(realName)` with the verified real name, the holder of every method.
 */
import type { ReactNode } from 'react';
import { Button, Result } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { useKyc } from '../../../shared/session';
import { InlineLoading, LoadFailed } from '../../../shared/ui';

/** Renders `children(realName)` only for a verified user. */
export function RealNameGate({ children }: { children: (realName: string) => ReactNode }) {
  return (
    <LoginFirst>
      <Gate>{children}</Gate>
    </LoginFirst>
  );
}

function Gate({ children }: { children: (realName: string) => ReactNode }) {
  const { t } = useTranslation('payment');
  const navigate = useNavigate();
  const kyc = useKyc();
  if (kyc.isLoading) return <InlineLoading />;
  if (kyc.isError || !kyc.data) return <LoadFailed error={kyc.error} onRetry={() => void kyc.refetch()} />;
  const basic = kyc.data.basic;
  if (basic.state === 'PASS') return <>{children(basic.realName ?? '')}</>;
  return (
    <Result
      status={basic.state === 'PENDING' ? 'waiting' : 'info'}
      title={t(basic.state === 'PENDING' ? 'realNamePending' : 'realNameRequired')}
      description={
        basic.state !== 'PENDING' && (
          <Button color="primary" size="small" onClick={() => navigate('/realname')}>
            {t('toRealName')}
          </Button>
        )
      }
    />
  );
}
