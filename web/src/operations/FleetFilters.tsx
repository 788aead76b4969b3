import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AutoComplete } from 'primereact/autocomplete';
import { recordTitle } from '../../../engine/src/list/index';
import type { Rec } from '../masterdata/api';
import { useMasterData } from '../masterdata/useMasterData';
import type { FleetFilters as Filters } from './fleet';

/**
 * A record of `entity` searched by its title on the server; chosen, it filters by its id; cleared, it does not filter.
 * `value`, when given, is the chosen id set from outside (a saved filter applied): its title is shown.
 */
export function RecordFilter({ entity, label, onChange, testId, value: chosen }: { entity: string; label: string; onChange: (id: string | null) => void; testId: string; value?: string | null }) {
  const { md, registry, lang, settings } = useMasterData();
  const [value, setValue] = useState<Rec | string>('');
  const [items, setItems] = useState<Rec[]>([]);
  const title = (r: Rec) => recordTitle(registry.entities[entity], r, lang);
  const shown = typeof value === 'object' ? String(value.id) : '';
  useEffect(() => {
    if (chosen === undefined || (chosen ?? '') === shown) return;
    if (!chosen) { setValue(''); return; }
    let live = true;
    md.get(entity, chosen).then((r) => live && setValue({ ...r, _title: title(r) }), () => live && setValue({ id: chosen, _title: chosen }));
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only an outside change of the id reloads its title
  }, [chosen, entity, md]);
  return (
    <AutoComplete value={value} suggestions={items} field="_title" placeholder={label} aria-label={label} data-testid={testId} delay={settings.picker.debounceMs}
      minLength={settings.picker.minChars} forceSelection
      completeMethod={(e) => { md.list(entity, { q: e.query, pageSize: settings.picker.pageSize, state: 1 }).then((a) => setItems(a.data.map((r) => ({ ...r, _title: title(r) }))), () => setItems([])); }}
      onChange={(e) => {
        setValue(e.value as Rec | string);
        if (typeof e.value === 'object' && e.value !== null) onChange(String((e.value as Rec).id));
        else if (!e.value) onChange(null);
      }} />
  );
}

/** A whole-number bound typed in a small input. */
function Bound({ value, onChange, label, testId }: { value: string; onChange: (v: string) => void; label: string; testId: string }) {
  return <input className="p-inputtext p-component tm-op-bound" type="number" min={0} step={1} value={value} aria-label={label} title={label} data-testid={testId} onChange={(e) => onChange(e.target.value)} />;
}

/** The fleet list's own filters: the customer holding the IBCs, fill count and age (years), each from / to. */
export function FleetFilters({ value, onChange, customerEntity }: { value: Filters; onChange: (f: Filters) => void; customerEntity: string | undefined }) {
  const { t } = useTranslation();
  const set = (patch: Partial<Filters>) => onChange({ ...value, ...patch });
  return (
    <>
      {customerEntity && <RecordFilter entity={customerEntity} label={t('operations.fleet.customer')} testId="filter-customer" onChange={(customer) => set({ customer })} />}
      <span className="tm-op-date">{t('operations.fleet.uses')}
        <Bound value={value.usesMin} label={t('operations.fleet.usesMin')} testId="filter-uses-min" onChange={(usesMin) => set({ usesMin })} />
        –<Bound value={value.usesMax} label={t('operations.fleet.usesMax')} testId="filter-uses-max" onChange={(usesMax) => set({ usesMax })} />
      </span>
      <span className="tm-op-date">{t('operations.fleet.age')}
        <Bound value={value.ageMin} label={t('operations.fleet.ageMin')} testId="filter-age-min" onChange={(ageMin) => set({ ageMin })} />
        –<Bound value={value.ageMax} label={t('operations.fleet.ageMax')} testId="filter-age-max" onChange={(ageMax) => set({ ageMax })} />
      </span>
    </>
  );
}
