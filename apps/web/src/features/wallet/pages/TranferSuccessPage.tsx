/**
 * /assets/tranferSuccess?coin=&amount=&from=&to= (the spec's spelling): the transfer is done (it settles at once in
 * the engine): amount, from and to, free; on to the transfer records, another transfer, or back to the assets.
 */
import { Button, Result } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatCoin } from '../../../shared/format';
import { PageHeader } from '../../../shared/ui';
import '../wallet.css';

const ACCOUNTS = new Set(['ASSETS', 'SPOT', 'CONTRACT', 'OTC']);

export default function TranferSuccessPage() {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const coin = params.get('coin') ?? '';
  const amount = params.get('amount') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const known = ACCOUNTS.has(from) && ACCOUNTS.has(to) && !!amount;
  return (
    <div className="wl-page">
      <PageHeader title={t('transferSuccess.title')} onBack={() => navigate('/assets', { replace: true })} />
      <Result
        status="success"
        title={t('transferSuccess.result')}
        className="wl-result"
        description={known ? `${formatCoin(amount, coin, { exact: true })} ${coin}` : undefined}
      />
      {known && (
        <dl className="wl-facts">
          <div>
            <dt>{t('transfer.from')}</dt>
            <dd>{t(`account.${from}`)}</dd>
          </div>
          <div>
            <dt>{t('transfer.to')}</dt>
            <dd>{t(`account.${to}`)}</dd>
          </div>
          <div>
            <dt>{t('transfer.fee')}</dt>
            <dd>{t('transfer.free')}</dd>
          </div>
        </dl>
      )}
      <div className="wl-form wl-buttons">
        <Button block color="primary" onClick={() => navigate('/assets/capitalRecords?type=transfer', { replace: true })}>
          {t('transferSuccess.records')}
        </Button>
        <Button block onClick={() => navigate('/assets/transfer', { replace: true })}>
          {t('transferSuccess.again')}
        </Button>
        <Button block fill="none" onClick={() => navigate('/assets', { replace: true })}>
          {t('backToAssets')}
        </Button>
      </div>
    </div>
  );
}
