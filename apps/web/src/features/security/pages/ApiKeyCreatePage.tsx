/**
 * /accountCenter/apiKeys/create: a new key for the Binance-compatible API. The form: a label; the key type
 * (a system-generated HMAC-SHA256 secret, or the user's own Ed25519 public key in PEM, whose private key never leaves
 * the user); permissions (read always on; spot trading; futures trading; withdrawals off by default, with the notice
 * that no route of this API moves funds off the exchange, and only with an IP whitelist); an optional IP whitelist;
 * the second factor as every sensitive action asks for it (the Google code when bound, else a VERIFY code). On
 * success the one-time screen shows the API key and, for HMAC, the secret with copy buttons: the secret exists only
 * in this page's state and is never shown again. Server errors are toasted in the user's language.
 */
import { useId, useState } from 'react';
import { Button, List, NoticeBar, Result, Selector, Switch, TextArea } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ApiKeyType, CreatedApiKey } from '@exchange/api';
import { Field } from '../../../shared/forms/fields';
import type { SecurityInfo } from '../api/contract';
import { useCreateApiKey } from '../api/create-api-key';
import { SecondFactorFields, secondFactorParams, type SecondFactorValue } from '../components/VerifyCodeField';
import { SecForm, SecPage } from '../components/SecForm';
import { CopyRow } from '../components/CopyRow';
import { checkApiKeyForm, LABEL_MAX } from '../lib/api-keys';
import { checkSixDigits } from '../lib/rules';
import '../api-keys.css';

/** Create-key page: the form, then the one-time screen. */
export default function ApiKeyCreatePage() {
  const { t } = useTranslation('apikeys');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <SecPage title={created ? t('createdTitle') : t('createTitle')} fallback="/accountCenter/apiKeys">
      {(s) => (created ? <OneTime created={created} /> : <CreateForm security={s} onCreated={setCreated} />)}
    </SecPage>
  );
}

function CreateForm({ security, onCreated }: { security: SecurityInfo; onCreated: (c: CreatedApiKey) => void }) {
  const { t } = useTranslation('apikeys');
  const { t: ts } = useTranslation('security');
  const [label, setLabel] = useState('');
  const [keyType, setKeyType] = useState<ApiKeyType>('HMAC_SHA256');
  const [publicKey, setPublicKey] = useState('');
  const [spotTrade, setSpotTrade] = useState(true);
  const [futuresTrade, setFuturesTrade] = useState(false);
  const [withdraw, setWithdraw] = useState(false);
  const [ipWhitelist, setIpWhitelist] = useState('');
  const [second, setSecond] = useState<SecondFactorValue>({ googleCode: '', verifyCode: '' });
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const create = useCreateApiKey();
  const pemId = useId();
  const ipId = useId();

  const submit = async () => {
    const form = checkApiKeyForm({ label, keyType, publicKey, withdraw, ipWhitelist });
    const next: Record<string, string | null> = {
      label: form.label && t(form.label, { max: LABEL_MAX }),
      publicKey: form.publicKey && t(form.publicKey),
      ipWhitelist: form.ipWhitelist && t(form.ipWhitelist),
      googleCode: security.googleBound ? tOr(ts, checkSixDigits(second.googleCode, 'v.googleRequired')) : null,
      verifyCode: security.googleBound ? null : tOr(ts, checkSixDigits(second.verifyCode, 'v.codeRequired')),
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    try {
      const c = await create.mutateAsync({
        label: label.trim(),
        keyType,
        publicKey: publicKey.trim(),
        spotTrade,
        futuresTrade,
        withdraw,
        ipWhitelist: ipWhitelist.trim(),
        ...secondFactorParams(security, second),
      });
      onCreated(c);
    } catch {
      /* toasted in the user's language */
    }
  };

  return (
    <SecForm intro={t('createIntro')} onSubmit={() => void submit()}>
      <Field label={t('label')} value={label} onChange={setLabel} placeholder={t('labelPlaceholder')} maxLength={LABEL_MAX} error={errors.label} />

      <div className="ex-field">
        <div className="ex-field-label" id={`${pemId}-type`}>
          {t('keyType')}
        </div>
        <Selector
          aria-labelledby={`${pemId}-type`}
          className="ak-type-selector"
          columns={2}
          value={[keyType]}
          onChange={(v) => v[0] && setKeyType(v[0])}
          options={[
            { label: t('type.HMAC_SHA256'), value: 'HMAC_SHA256' as ApiKeyType },
            { label: t('type.ED25519'), value: 'ED25519' as ApiKeyType },
          ]}
        />
        <p className="ak-help">{t(keyType === 'ED25519' ? 'typeHelp.ED25519' : 'typeHelp.HMAC_SHA256')}</p>
      </div>

      {keyType === 'ED25519' && (
        <div className="ex-field">
          <label className="ex-field-label" htmlFor={pemId}>
            {t('publicKey')}
          </label>
          <div className={`ak-textarea${errors.publicKey ? ' has-error' : ''}`}>
            <TextArea id={pemId} value={publicKey} onChange={setPublicKey} placeholder={t('publicKeyPlaceholder')} rows={4} maxLength={1000} />
          </div>
          {errors.publicKey && (
            <div className="ex-field-error" role="alert">
              {errors.publicKey}
            </div>
          )}
        </div>
      )}

      <div className="ex-field">
        <div className="ex-field-label">{t('permissions')}</div>
        <List className="ak-perm-list">
          <List.Item extra={<Switch checked disabled aria-label={t('perm.read')} />} description={t('permHelp.read')}>
            {t('perm.read')}
          </List.Item>
          <List.Item extra={<Switch checked={spotTrade} onChange={setSpotTrade} aria-label={t('perm.spotTrade')} />} description={t('permHelp.spotTrade')}>
            {t('perm.spotTrade')}
          </List.Item>
          <List.Item
            extra={<Switch checked={futuresTrade} onChange={setFuturesTrade} aria-label={t('perm.futuresTrade')} />}
            description={t('permHelp.futuresTrade')}
          >
            {t('perm.futuresTrade')}
          </List.Item>
          <List.Item extra={<Switch checked={withdraw} onChange={setWithdraw} aria-label={t('perm.withdraw')} />} description={t('permHelp.withdraw')}>
            {t('perm.withdraw')}
          </List.Item>
        </List>
        {withdraw && <NoticeBar className="ak-warn" color="alert" wrap content={t('withdrawWarning')} />}
      </div>

      <div className="ex-field">
        <label className="ex-field-label" htmlFor={ipId}>
          {t('ipWhitelistOptional')}
        </label>
        <div className={`ak-textarea${errors.ipWhitelist ? ' has-error' : ''}`}>
          <TextArea id={ipId} value={ipWhitelist} onChange={setIpWhitelist} placeholder={t('ipPlaceholder')} rows={3} maxLength={2000} />
        </div>
        {errors.ipWhitelist ? (
          <div className="ex-field-error" role="alert">
            {errors.ipWhitelist}
          </div>
        ) : (
          <p className="ak-help">{t('ipHelp')}</p>
        )}
      </div>

      <SecondFactorFields security={security} value={second} onChange={setSecond} errors={errors} />
      <Button block color="primary" type="submit" loading={create.isPending}>
        {t('submit')}
      </Button>
    </SecForm>
  );
}

/** Translates a rule's key, or null. */
function tOr(t: (k: string) => string, key: string | null): string | null {
  return key ? t(key) : null;
}

/** The one-time screen: the key and (HMAC) the secret with copy buttons, and the warning that it is never shown again. */
function OneTime({ created }: { created: CreatedApiKey }) {
  const { t } = useTranslation('apikeys');
  const navigate = useNavigate();
  const hmac = created.secretKey !== null;
  return (
    <div className="ak-once">
      <Result status="success" title={created.key.label} description={t(`type.${created.key.keyType}`)} />
      {hmac && <NoticeBar className="ak-warn" color="alert" wrap content={t('secretOnce')} />}
      <div className="sec-form">
        <CopyRow label={t('apiKey')} value={created.key.apiKey} testId="api-key" />
        {hmac ? <CopyRow label={t('secretKey')} value={created.secretKey ?? ''} testId="api-secret" /> : <p className="ak-help">{t('ed25519Created')}</p>}
        <p className="ak-help">{t('usage')}</p>
        <Button block color="primary" onClick={() => navigate('/accountCenter/apiKeys', { replace: true })}>
          {t(hmac ? 'savedSecret' : 'done')}
        </Button>
      </div>
    </div>
  );
}
