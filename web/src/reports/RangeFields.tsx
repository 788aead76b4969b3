import { useTranslation } from 'react-i18next';

/** Both ends of a range as typed: dates (YYYY-MM-DD) or numbers; '' is open. */
export interface RangeValue { from: string; to: string }

/**
 * A range's two inputs under its label (a report's date or number range, a dashboard's period):
 * `<testId>-from` and `<testId>-to`; an inverted range is marked and said.
 */
export function RangeFields({ label, testId, type, value, invalid, onChange }: {
  label: string; testId: string; type: 'date' | 'number'; value: RangeValue; invalid: boolean; onChange: (v: RangeValue) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={`tm-rep-range${invalid ? ' tm-rep-range--invalid' : ''}`} data-testid={testId}>
      <legend>{label}</legend>
      <input className="p-inputtext p-component" type={type} value={value.from} aria-label={t('reports.filter.from', { field: label })} data-testid={`${testId}-from`}
        onChange={(e) => onChange({ ...value, from: e.target.value })} />
      <span aria-hidden="true">–</span>
      <input className="p-inputtext p-component" type={type} value={value.to} aria-label={t('reports.filter.to', { field: label })} data-testid={`${testId}-to`}
        onChange={(e) => onChange({ ...value, to: e.target.value })} />
      {invalid && <small className="p-error" role="alert">{t('reports.filter.invalidRange')}</small>}
    </fieldset>
  );
}
