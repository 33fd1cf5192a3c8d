/**
 * /kefuWebview (spec section 2; the home header's customer-service icon): the live support chat itself. A main route
 * without a router guard: a visitor sees the log-in prompt (the chat belongs to an account: operators see who
 * writes, and replies must reach the same person later).
 */
import { useTranslation } from 'react-i18next';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { PageHeader } from '../../../shared/ui';
import { SupportChat } from '../components/SupportChat';
import '../support.css';

/** The chat page. */
export default function KefuPage() {
  const { t } = useTranslation('support');
  return (
    <div className="sup-page sup-page-chat">
      <PageHeader title={t('chatTitle')} fallback="/customer" />
      <LoginFirst>
        <SupportChat />
      </LoginFirst>
    </div>
  );
}
