/**
 * A labelled value with a copy button (the API key, a one-time secret): the value in a monospace box that wraps
 * anywhere, the button copies it and toasts the outcome. `testId` marks the value for journeys.
 */
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/api-client';
import { copyText } from '../../../shared/clipboard';

/** The row; `label` names both the value and its copy button ("Copy <label>"). */
export function CopyRow(props: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation('common');
  return (
    <div className="ak-copy">
      <div className="sec-key-label">{props.label}</div>
      <div className="sec-key-row">
        <code className="sec-key-value ak-mono" data-testid={props.testId} aria-label={props.label}>
          {props.value}
        </code>
        <Button
          size="mini"
          aria-label={`${t('copy')} ${props.label}`}
          onClick={() => void copyText(props.value).then((ok) => showToast(ok ? t('copied') : t('copyFailed')))}
        >
          {t('copy')}
        </Button>
      </div>
    </div>
  );
}
