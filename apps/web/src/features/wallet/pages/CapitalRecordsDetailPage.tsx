/**
 * /assets/capitalRecordsDetail?type=coinCharging|withdrawCoin|transfer&id= (spec section 2): one record in full
 * (RecordDetailView: tx hash with copy and explorer link, confirmations n/N, addresses, fee, status timeline),
 * polled while it still moves.
 */
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RecordType } from '@exchange/api';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { useRecordDetail } from '../api/get-record-detail';
import { RecordDetailView } from '../components/RecordDetailView';
import { recordTypeOf } from './CapitalRecordsPage';
import '../wallet.css';

export default function CapitalRecordsDetailPage() {
  const { t } = useTranslation('wallet');
  const [params] = useSearchParams();
  const type = recordTypeOf(params.get('type'));
  const id = params.get('id') ?? '';
  return (
    <div className="wl-page">
      <PageHeader title={t(`detailTitle.${type}`)} fallback={`/assets/capitalRecords?type=${type}`} />
      <LoginFirst>
        <Detail type={type} id={id} />
      </LoginFirst>
    </div>
  );
}

function Detail({ type, id }: { type: RecordType; id: string }) {
  const q = useRecordDetail(type, id);
  if (!id) return <LoadFailed error={null} />;
  if (q.isLoading) return <InlineLoading />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  return <RecordDetailView d={q.data} />;
}
