/**
 * /realname (spec sections 2, 4, 5, 9): basic identity verification. Country (default China), real name
 * (no digits or special characters), document type and number (a mainland ID checked by its check character and
 * birth date). Under 16 (read from a mainland ID's birth date, or when the server answers
 * guardian_consent_required) the guardian consent checkbox appears and must be ticked. States: unverified (the
 * form), under review, verified (with a way to advanced verification), rejected with the reason and resubmit.
 */
import { useMemo, useState } from 'react';
import { Button, Checkbox, List, Picker, Selector } from 'antd-mobile';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isApiError, showToast } from '../../../shared/api-client';
import { useKyc, type IdType } from '../../../shared/session';
import { useAppStore } from '../../../shared/storage';
import { InlineLoading, LoadFailed, PageHeader } from '../../../shared/ui';
import { Field } from '../../../shared/forms/fields';
import { useSubmitBasic } from '../api/submit-basic';
import { KycStateView } from '../components/KycStateView';
import { DEFAULT_COUNTRY, countryName, countryOptions } from '../lib/countries';
import { checkIdNumber, checkRealName, needsGuardian } from '../lib/identity';
import '../kyc.css';

/** Basic verification page. */
export default function RealnamePage() {
  const { t } = useTranslation('kyc');
  const navigate = useNavigate();
  const kyc = useKyc();
  const [resubmit, setResubmit] = useState(false);
  const basic = kyc.data?.basic;
  let body;
  if (kyc.isLoading) body = <InlineLoading />;
  else if (kyc.isError || !basic) body = <LoadFailed error={kyc.error} onRetry={() => void kyc.refetch()} />;
  else if (basic.state === 'NONE' || (basic.state === 'REJECTED' && resubmit)) body = <BasicForm />;
  else
    body = (
      <KycStateView state={basic.state} level="basic" reason={basic.rejectReason} onResubmit={() => setResubmit(true)}>
        <List className="kyc-list">
          <List.Item extra={basic.realName} arrowIcon={false}>
            {t('realName')}
          </List.Item>
          <List.Item extra={<span className="num">{basic.idNumber}</span>} arrowIcon={false}>
            {t('idNumber')}
          </List.Item>
        </List>
        <div className="kyc-form">
          <Button block color="primary" onClick={() => navigate('/realname1')}>
            {t('toAdvanced')}
          </Button>
        </div>
      </KycStateView>
    );
  return (
    <div className="kyc-page">
      <PageHeader title={t('basicTitle')} fallback="/personalCenter" />
      {body}
    </div>
  );
}

function BasicForm() {
  const { t } = useTranslation('kyc');
  const lang = useAppStore((s) => s.currentLangue);
  const [country, setCountry] = useState(DEFAULT_COUNTRY);
  const [picking, setPicking] = useState(false);
  const [realName, setRealName] = useState('');
  const [idType, setIdType] = useState<IdType>('ID_CARD');
  const [idNumber, setIdNumber] = useState('');
  const [consent, setConsent] = useState(false);
  const [serverMinor, setServerMinor] = useState(false);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const submit = useSubmitBasic();
  const options = useMemo(() => countryOptions(lang), [lang]);
  const minor = serverMinor || needsGuardian(country, idType, idNumber, new Date());
  const tr = (k: string | null) => (k ? t(k) : null);

  const onSubmit = async () => {
    const next = {
      realName: tr(checkRealName(realName)),
      idNumber: tr(checkIdNumber(country, idType, idNumber, new Date())),
      consent: minor && !consent ? t('v.consentRequired') : null,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    try {
      await submit.mutateAsync({
        country,
        realName: realName.trim(),
        idType,
        idNumber: idNumber.trim().toUpperCase(),
        guardianConsent: minor ? consent : undefined,
      });
      showToast(t('submitted'));
    } catch (e) {
      if (isApiError(e, 'guardian_consent_required')) {
        setServerMinor(true);
        setErrors({ consent: e.message });
      } else if (isApiError(e)) showToast(e.message);
    }
  };

  return (
    <form
      className="kyc-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void onSubmit();
      }}
    >
      <p className="kyc-intro">{t('basicIntro')}</p>
      <div className="ex-field">
        <span className="ex-field-label" id="kyc-country">
          {t('country')}
        </span>
        <button type="button" className="kyc-select" aria-labelledby="kyc-country" onClick={() => setPicking(true)}>
          {countryName(country, lang)}
        </button>
      </div>
      <Picker
        visible={picking}
        onClose={() => setPicking(false)}
        columns={[options.map((o) => ({ label: o.name, value: o.code }))]}
        value={[country]}
        onConfirm={(v) => v[0] && setCountry(String(v[0]))}
        confirmText={t('common:confirm')}
        cancelText={t('common:cancel')}
      />
      <Field
        label={t('realName')}
        value={realName}
        onChange={setRealName}
        placeholder={t('realNamePlaceholder')}
        maxLength={50}
        autoComplete="name"
        error={errors.realName}
      />
      <div className="ex-field">
        <span className="ex-field-label">{t('idType')}</span>
        <Selector
          className="kyc-selector"
          columns={3}
          value={[idType]}
          onChange={(v) => v[0] && setIdType(v[0])}
          options={(['ID_CARD', 'PASSPORT', 'DRIVING_LICENSE'] as const).map((k) => ({ label: t(`idTypes.${k}`), value: k }))}
        />
      </div>
      <Field
        label={t('idNumber')}
        value={idNumber}
        onChange={(v) => setIdNumber(v.replace(/\s/g, '').slice(0, 20))}
        placeholder={t(country === 'CN' && idType === 'ID_CARD' ? 'idPlaceholderCn' : 'idPlaceholder')}
        maxLength={20}
        error={errors.idNumber}
      />
      {minor && (
        <div className="kyc-consent">
          <p>{t('guardianHint')}</p>
          <Checkbox checked={consent} onChange={setConsent}>
            {t('guardianConsent')}
          </Checkbox>
          {errors.consent && (
            <div className="ex-field-error" role="alert">
              {errors.consent}
            </div>
          )}
        </div>
      )}
      <Button block color="primary" type="submit" loading={submit.isPending}>
        {t('common:submit')}
      </Button>
    </form>
  );
}
