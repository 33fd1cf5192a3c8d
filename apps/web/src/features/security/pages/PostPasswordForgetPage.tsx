/** /accountCenter/postPasswordForget: a VERIFY code (+ Google when bound), then a new transaction password. */
import { TransPasswordPage } from './TransPasswordPage';

/** Forgot-transaction-password page. */
export default function PostPasswordForgetPage() {
  return <TransPasswordPage mode="forget" />;
}
