import { useEffect, useState } from 'react';
import { AutoComplete } from 'primereact/autocomplete';
import { useMasterData } from '../masterdata/useMasterData';
import type { DashboardsApi } from './api';

type Option = { id: string; title: string };

/**
 * A reference filter's record, searched by its title through the dashboard's own options route
 * (no master-data key needed; a deposit of the selected group only). `value` is the chosen id;
 * one set from the address shows its title once the route names it.
 */
export function OptionsPicker({ api, dashboard, filter, label, testId, value, onChange }: {
  api: DashboardsApi; dashboard: string; filter: string; label: string; testId: string; value: string; onChange: (id: string) => void;
}) {
  const { settings } = useMasterData();
  const [shown, setShown] = useState<Option | string>('');
  const [items, setItems] = useState<Option[]>([]);
  useEffect(() => {
    if (!value) { setShown(''); return; }
    if (typeof shown === 'object' && shown.id === value) return;
    let live = true;
    api.options(dashboard, filter, { id: value }).then((a) => live && setShown(a.data[0] ?? { id: value, title: value }), () => live && setShown({ id: value, title: value }));
    return () => { live = false; };
  }, [api, dashboard, filter, value]); // eslint-disable-line react-hooks/exhaustive-deps -- only an outside change of the id reloads its title
  return (
    <AutoComplete value={shown} suggestions={items} field="title" placeholder={label} aria-label={label} data-testid={testId} delay={settings.picker.debounceMs} minLength={1} forceSelection dropdown
      completeMethod={(e) => { api.options(dashboard, filter, { q: e.query }).then((a) => setItems(a.data), () => setItems([])); }}
      onChange={(e) => {
        setShown(e.value as Option | string);
        if (typeof e.value === 'object' && e.value !== null) onChange((e.value as Option).id);
        else if (!e.value) onChange('');
      }} />
  );
}
