/**
 * Frame of the account-centre sub-pages: the page header, the login prompt when logged out, the security states
 * loaded (every form needs them to pick its second proof), then a form whose submit (button or Enter) calls
 * `onSubmit(security)`.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import type { SecurityInfo } from '../api/contract';
import { useSecurity } from '../api/get-security';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import '../security.css';

/** Page with `title`; `children(security)` renders the fields once the states are loaded. Back without history goes to `fallback` (default the account centre). */
export function SecPage(props: { title: string; fallback?: string; children: (s: SecurityInfo) => ReactNode }) {
  return (
    <div className="sec-page">
      <PageHeader title={props.title} fallback={props.fallback ?? '/accountCenter'} />
      <LoginFirst>
        <Loaded>{props.children}</Loaded>
      </LoginFirst>
    </div>
  );
}

function Loaded({ children }: { children: (s: SecurityInfo) => ReactNode }) {
  const q = useSecurity();
  if (q.isLoading) return <InlineLoading />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  return <>{children(q.data)}</>;
}

/** The form of a sub-page: an optional intro line, the fields, submit on Enter or the button. */
export function SecForm(props: { intro?: ReactNode; onSubmit: () => void; children: ReactNode }) {
  const { t } = useTranslation('security');
  return (
    <form
      className="sec-form"
      noValidate
      aria-label={t('title')}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.intro && <p className="sec-intro">{props.intro}</p>}
      {props.children}
    </form>
  );
}
