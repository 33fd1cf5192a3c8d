/**
 * The status timeline of a deposit or withdrawal (capital records detail, withdrawal success): the steps the record
 * goes through, done ones ticked, the current one highlighted; a rejected or failed withdrawal ends at that step with
 * its reason; a deposit below the minimum or orphaned by a reorganisation ends there.
 */
import { Steps } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { DepositStatus, WithdrawStatus } from '@exchange/api';

const WITHDRAW_PATH = ['SUBMITTED', 'REVIEW', 'APPROVED', 'BROADCASTING', 'CONFIRMING', 'COMPLETED'] as const;

/** The steps shown for a withdrawal in `status`, and the index of the current one. */
export function withdrawSteps(status: WithdrawStatus): { steps: string[]; current: number; error: boolean } {
  if (status === 'REJECTED') return { steps: ['SUBMITTED', 'REVIEW', 'REJECTED'], current: 2, error: true };
  // A failure is reported after approval (broadcast or on-chain failure): the hold is released.
  if (status === 'FAILED') return { steps: ['SUBMITTED', 'REVIEW', 'APPROVED', 'FAILED'], current: 3, error: true };
  return { steps: [...WITHDRAW_PATH], current: WITHDRAW_PATH.indexOf(status), error: false };
}

/** The steps shown for a deposit in `status`. */
export function depositSteps(status: DepositStatus): { steps: string[]; current: number; error: boolean } {
  if (status === 'BELOW_MINIMUM') return { steps: ['DETECTED', 'BELOW_MINIMUM'], current: 1, error: true };
  if (status === 'ORPHANED') return { steps: ['DETECTED', 'ORPHANED'], current: 1, error: true };
  return { steps: ['DETECTED', 'CONFIRMING', 'CREDITED'], current: status === 'CONFIRMING' ? 1 : 2, error: false };
}

/** The vertical timeline; `reason` is shown under a rejected or failed step; `confirmations` under CONFIRMING. */
export function StatusTimeline(props: { kind: 'deposit' | 'withdrawal'; status: string; reason?: string; confirmations?: string }) {
  const { t } = useTranslation('wallet');
  const { steps, current, error } = props.kind === 'deposit' ? depositSteps(props.status as DepositStatus) : withdrawSteps(props.status as WithdrawStatus);
  const done = !error && steps[current] === steps[steps.length - 1];
  return (
    <Steps direction="vertical" current={current} className="wl-steps" aria-label={t('timeline')}>
      {steps.map((s, i) => (
        <Steps.Step
          key={s}
          title={t(`step.${s}`)}
          status={i < current || (i === current && done) ? 'finish' : i === current ? (error ? 'error' : 'process') : 'wait'}
          description={i === current && error && props.reason ? props.reason : i === current && s === 'CONFIRMING' ? props.confirmations : undefined}
        />
      ))}
    </Steps>
  );
}
