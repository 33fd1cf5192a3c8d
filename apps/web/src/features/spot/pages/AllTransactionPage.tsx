// PLACEHOLDER (to be replaced by the quotes/spot/assets engineer): a minimal page so that the
// route table builds. Replace the whole file; keep the default export.
import { PageHeader } from '../../../shared/ui';
import NotAvailablePage from '../../placeholder/pages/NotAvailablePage';

/** Placeholder of AllTransactionPage. */
export default function AllTransactionPage() {
  return (
    <>
      <PageHeader title="AllTransactionPage" />
      <NotAvailablePage embedded />
    </>
  );
}
