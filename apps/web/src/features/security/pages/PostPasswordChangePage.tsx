/** /accountCenter/postPasswordChange: old transaction password, then the new one (TransPasswordPage). */
import { TransPasswordPage } from './TransPasswordPage';

/** Change-transaction-password page. */
export default function PostPasswordChangePage() {
  return <TransPasswordPage mode="change" />;
}
