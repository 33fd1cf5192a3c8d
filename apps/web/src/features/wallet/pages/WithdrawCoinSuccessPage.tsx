/**
 * /assets/withdrawCoinSuccess?id= (spec section 2): the withdrawal just filed: "Withdrawal submitted", the record
 * with its state and timeline (polled while it moves: review, approved, broadcasting, confirming, completed), and
 * the way on: the withdrawal records, or back to the assets. "Submitted" is said only of a withdrawal the server
 * returned: without an id, or when the record cannot be read, the page says so instead of claiming a success.
 */
import { Button, Result } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { WithdrawStatus } from '@exchange/api';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { useRecordDetail } from '../api/get-record-detail';
import { RecordDetailView } from '../components/RecordDetailView';
import '../wallet.css';

export default function WithdrawCoinSuccessPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <div className="wl-page">
      <PageHeader title={t('withdrawSuccess.title')} onBack={() => navigate('/assets', { replace: true })} />
      <LoginFirst>
        {id ? <Detail id={id} /> : <Result status="info" title={t('withdrawSuccess.notFound')} className="wl-result" />}
        <div className="wl-form wl-buttons">
          <Button block color="primary" onClick={() => navigate('/assets/capitalRecords?type=withdrawCoin', { replace: true })}>
            {t('withdrawSuccess.records')}
          </Button>
          <Button block onClick={() => navigate('/assets', { replace: true })}>
            {t('backToAssets')}
          </Button>
        </div>
      </LoginFirst>
    </div>
  );
}

/**
 * The line under "Withdrawal submitted", by the withdrawal's state: the amount is held while it moves; a completed
 * one was sent; a rejected or failed one gave the amount back (never "held" once it has ended).
 */
export function hintKey(status: WithdrawStatus | undefined): 'withdrawSuccess.hint' | 'withdrawSuccess.hintCompleted' | 'withdrawSuccess.hintReturned' {
  if (status === 'COMPLETED') return 'withdrawSuccess.hintCompleted';
  if (status === 'REJECTED' || status === 'FAILED') return 'withdrawSuccess.hintReturned';
  return 'withdrawSuccess.hint';
}

function Detail({ id }: { id: string }) {
  const { t } = useTranslation('wallet');
  const q = useRecordDetail('withdrawCoin', id);
  if (q.isLoading) return <InlineLoading />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} compact />;
  return (
    <>
      <Result status="success" title={t('withdrawSuccess.result')} description={t(hintKey(q.data.withdrawal?.status))} className="wl-result" />
      <RecordDetailView d={q.data} />
    </>
  );
}
