/**
 * The contract screens' number field (order form, conditional order fields, margin sheet): a label, the value grouped
 * in thousands as it is typed, optional steppers, and the message of a refused value under it.
 */
import { useTranslation } from 'react-i18next';
import { groupThousands } from '../../../shared/format';

/** A number field's props. */
export interface FieldProps {
  id: string;
  label: string;
  unit: string;
  value: string;
  onChange: (v: string) => void;
  onStep?: (dir: 1 | -1) => void;
  error?: string | null;
  inputMode?: 'decimal' | 'numeric';
  /** Shows the label above the field (fields whose value alone does not say what it is: TP, SL, close lots). */
  caption?: boolean;
}

/** Cleans typed text into a decimal ("01.50" -> "1.50"); `whole` keeps digits only. */
export function cleanInput(raw: string, whole = false): string {
  let s = raw.replace(/,/g, whole ? '' : '.').replace(whole ? /[^\d]/g : /[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot >= 0) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  s = s.replace(/^0+(?=\d)/, '');
  return s.startsWith('.') ? `0${s}` : s;
}

/** One number field with optional steppers and the message of a refused value under it. */
export function NumberField({ id, label, unit, value, onChange, onStep, error, inputMode = 'decimal', caption }: FieldProps) {
  const { t } = useTranslation('contract');
  const errorId = `${id}-error`;
  return (
    <div className="ct-field-wrap">
      {caption && (
        <span className="ct-caption" aria-hidden="true">
          {unit ? `${label} (${unit})` : label}
        </span>
      )}
      <div className={`ct-field${error ? ' ct-field-invalid' : ''}`}>
        {onStep && (
          <button type="button" className="ct-step" aria-label={t('decrease', { field: label })} onClick={() => onStep(-1)}>
            −
          </button>
        )}
        <label htmlFor={id} className="ct-field-label">
          {label}
        </label>
        <input
          id={id}
          className="ct-input num"
          inputMode={inputMode}
          autoComplete="off"
          placeholder={unit ? `${label} (${unit})` : label}
          value={inputMode === 'decimal' ? groupThousands(value) : value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(cleanInput(e.target.value.replace(/,/g, ''), inputMode === 'numeric'))}
        />
        {onStep && (
          <button type="button" className="ct-step" aria-label={t('increase', { field: label })} onClick={() => onStep(1)}>
            +
          </button>
        )}
      </div>
      {error && (
        <div id={errorId} className="ct-field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
