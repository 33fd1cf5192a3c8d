/**
 * /accountCenter/apiKeys: the user's keys for the Binance-compatible API
 * (docs/binance-api.md), newest first: label, type (HMAC or Ed25519), the API key with copy, permissions as tags,
 * the IP whitelist or "unrestricted", created and last used; delete after a confirmation (the key stops working at
 * once). The header's button and the empty state lead to /accountCenter/apiKeys/create. Logged out, the page asks to
 * log in.
 */
import { Button, Tag } from 'antd-mobile';
import { AddOutline } from 'antd-mobile-icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MAX_API_KEYS_PER_USER, type ApiKeyView } from '@exchange/api';
import { loadFeedback } from '../../../shared/ui/feedback';
import { formatDateTime } from '../../../shared/format';
import { EmptyState, isAwaiting, ListSkeleton, LoadFailed, PageHeader } from '../../../shared/ui';
import { showToast } from '../../../shared/api-client';
import { LoginFirst } from '../../../shared/guards/LoginFirst';
import { useApiKeys } from '../api/list-api-keys';
import { useDeleteApiKey } from '../api/delete-api-key';
import { CopyRow } from '../components/CopyRow';
import { permissionKeys } from '../lib/api-keys';
import '../security.css';
import '../api-keys.css';

/** API key list page. */
export default function ApiKeysPage() {
  const { t } = useTranslation('apikeys');
  const navigate = useNavigate();
  return (
    <div className="sec-page">
      <PageHeader
        title={t('title')}
        fallback="/accountCenter"
        right={
          <button type="button" className="ex-back" aria-label={t('create')} onClick={() => navigate('/accountCenter/apiKeys/create')}>
            <AddOutline />
          </button>
        }
      />
      <LoginFirst>
        <ApiKeys />
      </LoginFirst>
    </div>
  );
}

function ApiKeys() {
  const { t } = useTranslation('apikeys');
  const navigate = useNavigate();
  const q = useApiKeys();
  if (isAwaiting(q)) return <ListSkeleton />;
  if (q.isError || !q.data) return <LoadFailed error={q.error} onRetry={() => void q.refetch()} />;
  const keys = q.data;
  const full = keys.length >= MAX_API_KEYS_PER_USER;
  return (
    <>
      <p className="ak-intro">{t('intro')}</p>
      {keys.length === 0 ? (
        <EmptyState text={t('empty')} />
      ) : (
        <ul className="ak-list" aria-label={t('title')}>
          {keys.map((k) => (
            <KeyCard key={k.id} k={k} />
          ))}
        </ul>
      )}
      <div className="ak-footer">
        <div className="ak-count">{t('count', { n: keys.length, max: MAX_API_KEYS_PER_USER })}</div>
        <Button block color="primary" disabled={full} onClick={() => navigate('/accountCenter/apiKeys/create')}>
          {t('create')}
        </Button>
      </div>
    </>
  );
}

function KeyCard({ k }: { k: ApiKeyView }) {
  const { t } = useTranslation('apikeys');
  const remove = useDeleteApiKey();
  const onDelete = async () => {
    const ok = await (
      await loadFeedback()
    ).Dialog.confirm({
      title: t('deleteTitle'),
      content: t('deleteConfirm', { label: k.label }),
      confirmText: t('delete'),
      cancelText: t('common:cancel'),
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(k.id);
      showToast(t('deleted'));
    } catch {
      /* toasted */
    }
  };
  return (
    <li className="ak-card" aria-label={k.label}>
      <div className="ak-card-head">
        <span className="ak-label">{k.label}</span>
        <Tag className="ak-type" color="primary" fill="outline">
          {t(`typeShort.${k.keyType}`)}
        </Tag>
        <Button className="ak-delete" size="mini" color="danger" fill="outline" loading={remove.isPending} onClick={() => void onDelete()}>
          {t('delete')}
        </Button>
      </div>
      <CopyRow label={t('apiKey')} value={k.apiKey} />
      <dl className="ak-facts">
        <dt>{t('permissions')}</dt>
        <dd className="ak-perms">
          {permissionKeys(k).map((p) => (
            <Tag key={p} color={p === 'perm.withdraw' ? 'danger' : p === 'perm.read' ? 'default' : 'success'} fill="outline">
              {t(p)}
            </Tag>
          ))}
        </dd>
        <dt>{t('ipWhitelist')}</dt>
        <dd className={k.ipWhitelist.length ? 'ak-ips num' : 'ak-unrestricted'}>{k.ipWhitelist.length ? k.ipWhitelist.join(', ') : t('unrestricted')}</dd>
        <dt>{t('createdAt')}</dt>
        <dd className="num">{formatDateTime(k.createdAt)}</dd>
        <dt>{t('lastUsedAt')}</dt>
        <dd className="num">{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : t('neverUsed')}</dd>
      </dl>
    </li>
  );
}
