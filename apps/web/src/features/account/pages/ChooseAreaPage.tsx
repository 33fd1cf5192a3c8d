/** /chooseArea: choose the country calling code (spec section 2); stores it and goes back. */
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../shared/ui';
import { useAppStore } from '../../../shared/storage';
import { CountryPicker } from '../../../shared/forms/CountryPicker';

/** Area code page. */
export default function ChooseAreaPage() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const areaCode = useAppStore((s) => s.areaCode);
  const setAreaCode = useAppStore((s) => s.setAreaCode);
  return (
    <div>
      <PageHeader title={t('area.title')} fallback="/register" />
      <CountryPicker
        value={areaCode}
        onPick={(code) => {
          setAreaCode(code);
          if (window.history.length > 1) navigate(-1);
          else navigate('/register', { replace: true });
        }}
      />
    </div>
  );
}
