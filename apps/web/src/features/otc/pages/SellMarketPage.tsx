/** /transaction/transactionFabi1: the P2P market where the user sells (MarketPage, side SELL). */
import { MarketPage } from './MarketPage';

/** The sell side of the market. */
export default function SellMarketPage() {
  return <MarketPage side="SELL" />;
}
