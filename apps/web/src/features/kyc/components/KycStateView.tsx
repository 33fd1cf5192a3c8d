/**
 * The state of one verification level as a result panel (spec section 4: unverified, under review, verified;
 * also rejected, with the reason in the user's language and a way to resubmit).
 */
import type { ReactNode } from 'react';
import { Button, Result } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { KycState } from '../../../shared/session';

/** Result panel for PENDING, PASS and REJECTED (NONE shows the form instead). */
export function KycStateView(props: {
  state: Exclude<KycState, 'NONE'>;
  level: 'basic' | 'advanced';
  reason?: string;
  onResubmit?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('kyc');
  if (props.state === 'PENDING') return <Result status="waiting" title={t('state.PENDING')} description={t(`pendingHint.${props.level}`)} />;
  if (props.state === 'PASS')
    return (
      <>
        <Result status="success" title={t('state.PASS')} description={t(`passHint.${props.level}`)} />
        {props.children}
      </>
    );
  return (
    <Result
      status="error"
      title={t('state.REJECTED')}
      description={
        <div className="kyc-reject">
          <div>{t('rejectReason', { reason: props.reason || '--' })}</div>
          {props.onResubmit && (
            <Button color="primary" size="small" onClick={props.onResubmit}>
              {t('resubmit')}
            </Button>
          )}
        </div>
      }
    />
  );
}
