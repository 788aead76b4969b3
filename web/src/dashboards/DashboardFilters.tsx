import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { localize, type DashboardFilterDef, type Warehouse } from '../../../engine/src/index';
import { useMasterData } from '../masterdata/useMasterData';
import type { DashboardsApi } from './api';
import { OptionsPicker } from './OptionsPicker';
import { RangeFields } from '../reports/RangeFields';
import { defaultBar, invertedPeriods, type BarValues } from './model';

export interface DashboardFiltersProps {
  filters: readonly DashboardFilterDef[];
  values: BarValues;
  onApply: (v: BarValues) => void;
  today: string;
  /** The deposits a deposit filter offers: the selected group's (none selected: searched through the options route). */
  deposits: readonly Warehouse[];
  dashboard: string;
  api: DashboardsApi;
}

/**
 * The dashboard's filter bar, as its definition declares it: a period (from, to) and a deposit,
 * edited as a draft and applied together; an inverted period is shown and not applied. Reset
 * puts back the definition's defaults (this month…).
 */
export function DashboardFilters({ filters, values, onApply, today, deposits, dashboard, api }: DashboardFiltersProps) {
  const { t } = useTranslation();
  const { lang } = useMasterData();
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), [values]);
  if (filters.length === 0) return null;
  const inverted = new Set(invertedPeriods(filters, draft));
  const set = (id: string, v: BarValues[string]) => setDraft((d) => ({ ...d, [id]: v }));
  return (
    <form className="tm-md-toolbar tm-dash-filters" data-testid="dashboard-filters" onSubmit={(e) => { e.preventDefault(); if (inverted.size === 0) onApply(draft); }}>
      {filters.map((f) => {
        const label = localize(f.label, lang);
        const testId = `dashboard-filter-${f.id}`;
        const v = draft[f.id];
        if (f.type === 'date_range') {
          return <RangeFields key={f.id} label={label} testId={testId} type="date" value={typeof v === 'object' ? v : { from: '', to: '' }} invalid={inverted.has(f.id)} onChange={(r) => set(f.id, r)} />;
        }
        if (f.ref === 'company_division' && deposits.length > 0) {
          return (
            <Dropdown key={f.id} value={typeof v === 'string' && v ? v : null} options={deposits.map((d) => ({ label: d.label, value: String(d.id) }))} showClear filter={deposits.length > 8}
              placeholder={t('dashboards.filter.any', { field: label })} aria-label={label} data-testid={testId} onChange={(e) => set(f.id, (e.value as string | null) ?? '')} />
          );
        }
        return <OptionsPicker key={f.id} api={api} dashboard={dashboard} filter={f.id} label={label} testId={testId} value={typeof v === 'string' ? v : ''} onChange={(id) => set(f.id, id)} />;
      })}
      <Button type="submit" label={t('reports.filter.apply')} icon="pi pi-filter" disabled={inverted.size > 0} data-testid="dashboard-apply" />
      <Button type="button" label={t('dashboards.filter.reset')} icon="pi pi-refresh" text data-testid="dashboard-reset"
        onClick={() => { const d = defaultBar(filters, today); setDraft(d); onApply(d); }} />
    </form>
  );
}
