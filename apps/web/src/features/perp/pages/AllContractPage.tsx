/**
 * /contract/allContract (login required by the router; spec section 2 "contract list tabs"): every contract order of
 * the user in the tabs matched (orders with fills), unmatched (open: cancel here too), cancelled (without a fill),
 * and history (every ended order), paged ("Load more"), each with every field of spec section 3's contract order.
 */
import { useState } from 'react';
import type { ContractOrderTab } from '@exchange/api';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import { SegTabs } from '../../../shared/ui/SegTabs';
import { ContractOrderPages } from '../components/ContractOrderPages';
import { useContractLive } from '../hooks/use-contract-live';
import '../contract.css';

/** The tabs in the spec's order, history last. */
export const ALL_CONTRACT_TABS: readonly ContractOrderTab[] = ['matched', 'unmatched', 'cancelled', 'history'];

/** The all-contract-orders page. */
export default function AllContractPage() {
  const { t } = useTranslation('contract');
  const [tab, setTab] = useState<ContractOrderTab>('matched');
  useContractLive();
  return (
    <div className="ct-page">
      <PageHeader title={t('allOrders')} fallback="/contract" />
      <SegTabs
        classPrefix="ct"
        label={t('allOrders')}
        className="ct-all-tabs"
        items={ALL_CONTRACT_TABS.map((k) => ({ key: k, label: t(`tab.${k}`) }))}
        active={tab}
        onChange={setTab}
      />
      <div role="tabpanel">
        <ContractOrderPages key={tab} tab={tab} />
      </div>
    </div>
  );
}
