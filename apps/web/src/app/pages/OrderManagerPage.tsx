/**
 * /orderManger (spec section 2; one place for open orders and history across spot and contracts): the
 * user's orders by market (spot, USDT perpetual futures) and list (open orders, order history), with the same cards,
 * paging, fills and cancel as /transaction/allTransaction and /contract/allContract (SpotOrderPages,
 * ContractOrderPages), kept live by the private pushes of both markets. No login guard in the router (spec section 2):
 * logged out, the page asks to log in. It composes two features (spot and contract), so it lives in the app layer
 * (features never import each other).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/ui';
import { SegTabs } from '../../shared/ui/SegTabs';
import { LoginFirst } from '../../shared/guards/LoginFirst';
import { SpotOrderPages } from '../../features/spot/components/SpotOrderPages';
import { ContractOrderPages } from '../../features/perp/components/ContractOrderPages';
import { useSpotLive } from '../../features/spot/hooks/use-spot-live';
import { useContractLive } from '../../features/perp/hooks/use-contract-live';
import '../../features/spot/spot.css';
import '../../features/perp/contract.css';
import './order-manager.css';

type Market = 'spot' | 'contract';
type List = 'open' | 'history';

function Orders({ market, list }: { market: Market; list: List }) {
  useSpotLive();
  useContractLive();
  if (market === 'spot') return <SpotOrderPages key={list} type={list === 'open' ? 'current' : 'history'} />;
  return <ContractOrderPages key={list} tab={list === 'open' ? 'unmatched' : 'history'} />;
}

/** The order manager page. */
export default function OrderManagerPage() {
  const { t } = useTranslation('common');
  const [market, setMarket] = useState<Market>('spot');
  const [list, setList] = useState<List>('open');
  return (
    <div className="sp-page">
      <PageHeader title={t('orderManager.title')} fallback="/transaction" />
      <LoginFirst>
        <SegTabs
          classPrefix="sp"
          label={t('orderManager.markets')}
          className="sp-all-tabs"
          items={[
            { key: 'spot' as const, label: t('orderManager.spot') },
            { key: 'contract' as const, label: t('orderManager.contract') },
          ]}
          active={market}
          onChange={setMarket}
        />
        <SegTabs
          classPrefix="sp"
          label={t('orderManager.title')}
          variant="pill"
          className="om-lists"
          items={[
            { key: 'open' as const, label: t('orderManager.open') },
            { key: 'history' as const, label: t('orderManager.history') },
          ]}
          active={list}
          onChange={setList}
        />
        <div role="tabpanel">
          <Orders key={market} market={market} list={list} />
        </div>
      </LoginFirst>
    </div>
  );
}
