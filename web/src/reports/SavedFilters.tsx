import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortingState } from '@tanstack/react-table';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import type { ReportDef } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import { useToast } from '../toasts/toast';
import { useReports } from './context';
import { savedFilterBody, type FilterValues, type SavedFilter } from './filters';

const NAME_MAX = 80;

/**
 * The user's saved filters of this report: a menu to save the applied filters and sort
 * under a name, apply one, or delete one. A taken name is the server's 409, shown in the dialog.
 */
export function SavedFilters({ def, values, sorting, onApply }: { def: ReportDef; values: FilterValues; sorting: SortingState; onApply: (saved: SavedFilter) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const { reports } = useReports();
  const menu = useRef<Menu>(null);
  const [saved, setSaved] = useState<SavedFilter[]>([]);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => reports.savedFilters(def.key).then(setSaved, () => setSaved([])), [reports, def.key]);
  useEffect(() => { void load(); }, [load]);

  const save = () => {
    setError(null);
    reports.saveFilter(def.key, savedFilterBody(def, name, values, sorting)).then(
      () => { setNaming(false); setName(''); void load(); toast({ severity: 'success', summary: t('reports.saved.saved', { name: name.trim() }) }); },
      (e: unknown) => setError(errorText(e, t)),
    );
  };
  const remove = (f: SavedFilter) => reports.deleteFilter(def.key, f.id).then(() => void load(), (e: unknown) => toast({ severity: 'error', summary: errorText(e, t) }));

  const items: MenuItem[] = [
    { label: t('reports.saved.saveAs'), icon: 'pi pi-save', command: () => { setError(null); setNaming(true); }, data: { testid: 'saved-save-as' } },
    ...(saved.length ? [{ separator: true }] : []),
    ...saved.map((f): MenuItem => ({
      label: f.name,
      command: () => onApply(f),
      template: (item, o) => (
        <div className="p-menuitem-content tm-rep-saved__item" data-testid="saved-filter" data-name={f.name}>
          <a className={o.className} href="#" onClick={(e) => { e.preventDefault(); o.onClick(e); }}><i className="pi pi-filter" aria-hidden="true" /> {item.label}</a>
          <Button icon="pi pi-trash" text rounded severity="danger" aria-label={t('reports.saved.delete', { name: f.name })} data-testid="saved-filter-delete"
            onClick={(e) => { e.stopPropagation(); void remove(f); }} />
        </div>
      ),
    })),
  ];
  const trimmed = name.trim();
  return (
    <>
      <Button label={t('reports.saved.title')} icon="pi pi-bookmark" outlined onClick={(e) => menu.current?.toggle(e)} aria-haspopup data-testid="saved-filters" />
      <Menu model={items} popup ref={menu} data-testid="saved-filters-menu" />
      <Dialog header={t('reports.saved.saveAs')} visible={naming} onHide={() => setNaming(false)} style={{ width: 'min(28rem, 96vw)' }} data-testid="saved-filter-dialog"
        footer={<>
          <Button label={t('common.cancel')} text onClick={() => setNaming(false)} />
          <Button label={t('common.save')} disabled={!trimmed || trimmed.length > NAME_MAX} onClick={save} data-testid="saved-filter-save" />
        </>}>
        <form onSubmit={(e) => { e.preventDefault(); if (trimmed && trimmed.length <= NAME_MAX) save(); }}>
          <label className="tm-rep-field">{t('reports.saved.name')}
            <InputText value={name} maxLength={NAME_MAX} autoFocus onChange={(e) => setName(e.target.value)} data-testid="saved-filter-name" />
          </label>
          {error && <small className="p-error" role="alert" data-testid="saved-filter-error">{error}</small>}
        </form>
      </Dialog>
    </>
  );
}
