import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { MultiSelect } from 'primereact/multiselect';
import { localize, type ReportDef, type ReportFilterDef } from '../../../engine/src/index';
import { useMasterData } from '../masterdata/useMasterData';
import { RecordFilter } from '../operations/FleetFilters';
import { emptyFilters, invalidFilters, type FilterValue, type FilterValues, type Range } from './filters';
import { RangeFields } from './RangeFields';

/** One declared filter's input, by its type. */
function FilterInput({ filter, value, onChange, invalid }: { filter: ReportFilterDef; value: FilterValue; onChange: (v: FilterValue) => void; invalid: boolean }) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const label = localize(filter.label, lang);
  const testId = `report-filter-${filter.id}`;
  switch (filter.type) {
    case 'date_range':
    case 'number_range':
      return <RangeFields label={label} testId={testId} type={filter.type === 'date_range' ? 'date' : 'number'} value={value as Range} invalid={invalid} onChange={onChange} />;
    case 'select':
    case 'status': {
      const wf = filter.type === 'status' ? registry.workflows[filter.workflow ?? ''] : undefined;
      const options = wf
        ? wf.states.map((s) => ({ label: localize(s.label, lang), value: s.id, color: s.color }))
        : (filter.options ?? []).map((o) => ({ label: localize(o.label, lang), value: String(o.value), color: undefined }));
      return (
        <MultiSelect value={value as string[]} options={options} placeholder={label} aria-label={label} data-testid={testId} display="chip" showClear
          itemTemplate={(o: { label: string; color?: string }) => (o.color ? <span className="tm-op-badge" style={{ background: o.color }}>{o.label}</span> : o.label)}
          onChange={(e) => onChange((e.value as string[] | null) ?? [])} />
      );
    }
    case 'reference':
      return filter.ref
        ? <RecordFilter entity={filter.ref} label={label} testId={testId} value={(value as string) || null} onChange={(id) => onChange(id ?? '')} />
        : null;
    case 'boolean':
      return (
        <Dropdown value={value || null} options={[{ label: t('common.yes'), value: 'true' }, { label: t('common.no'), value: 'false' }]} showClear
          placeholder={label} aria-label={label} data-testid={testId} onChange={(e) => onChange((e.value as string | null) ?? '')} />
      );
    default:
      return <InputText value={value as string} placeholder={label} aria-label={label} data-testid={testId} onChange={(e) => onChange(e.target.value)} />;
  }
}

/**
 * The report's declared filters, edited as a draft and applied together (Apply, or Enter in
 * a text input): a half-typed range never reaches the server, and an inverted one is shown here
 * instead of being sent. Clear empties every filter. A change from outside (a saved filter) replaces the draft.
 */
export function FilterBar({ def, values, onApply }: { def: ReportDef; values: FilterValues; onApply: (v: FilterValues) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(values);
  useEffect(() => setDraft(values), [values]);
  if (def.filters.length === 0) return null;
  const invalid = new Set(invalidFilters(def.filters, draft));
  return (
    <form className="tm-md-toolbar tm-rep-filters" data-testid="report-filters" onSubmit={(e) => { e.preventDefault(); if (invalid.size === 0) onApply(draft); }}>
      {def.filters.map((f) => (
        <FilterInput key={f.id} filter={f} value={draft[f.id] ?? emptyFilters([f])[f.id]} invalid={invalid.has(f.id)}
          onChange={(v) => setDraft((d) => ({ ...d, [f.id]: v }))} />
      ))}
      <Button type="submit" label={t('reports.filter.apply')} icon="pi pi-filter" disabled={invalid.size > 0} data-testid="report-apply" />
      <Button type="button" label={t('common.clear')} icon="pi pi-filter-slash" text data-testid="report-clear"
        onClick={() => { const empty = emptyFilters(def.filters); setDraft(empty); onApply(empty); }} />
    </form>
  );
}
