import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';
import { InputText } from 'primereact/inputtext';
import { FieldLabel } from './FieldLabel';
import { firstExpiredFirst, type BatchOption, type BatchScope } from './batchLogic';

/**
 * A lot number (`widget: "batch"`): typed, or picked from the batches of the line's material
 * with stock at the record's deposit, first-expired first, with the quantity available and
 * the expiry. Outside an operation form it is a plain text input.
 */
export function BatchPicker(props: FieldProps) {
  const { t } = useTranslation();
  const formContext = props.registry.formContext as { batches?: BatchScope; value?: { current: unknown } } | undefined;
  const ctx = formContext?.batches;
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<BatchOption[]>([]);
  const [hint, setHint] = useState<string | null>(null);
  const value = typeof props.formData === 'string' ? props.formData : '';
  const readOnly = props.readonly || props.disabled;
  const path = props.fieldPathId.path;

  const set = (v: string) => props.onChange((v || undefined) as never, path, undefined, props.fieldPathId.$id);

  const load = () => {
    setOpen(true);
    const scope = ctx?.scope(path, formContext?.value?.current);
    if (!ctx || !scope) { setItems([]); setHint(null); return; }
    if (!scope.material) { setItems([]); setHint(t('operations.batch.chooseMaterial')); return; }
    ctx.batches(scope.material, scope.deposit).then((rows) => {
      setItems(firstExpiredFirst(rows));
      setHint(rows.length ? null : t('operations.batch.none'));
    }, () => { setItems([]); setHint(t('operations.batch.none')); });
  };

  return (
    <div className="tm-md-picker field" data-testid="batch-picker">
      <FieldLabel props={props} />
      <InputText id={props.fieldPathId.$id} value={value} disabled={readOnly} autoComplete="off" role="combobox" aria-expanded={open}
        onChange={(e) => set(e.target.value)} onFocus={load} onBlur={() => setTimeout(() => setOpen(false), 200)} />
      {open && hint && <small className="tm-md-picker__hint" data-testid="batch-hint">{hint}</small>}
      {open && items.length > 0 && (
        <ul className="tm-md-picker__list p-autocomplete-items" role="listbox" data-testid="batch-options">
          {items.map((b) => (
            <li key={`${b.batch}|${b.deposit ?? ''}`} role="option" aria-selected={b.batch === value} className="p-autocomplete-item" data-batch={b.batch}
              onMouseDown={(e) => { e.preventDefault(); set(b.batch); setOpen(false); }}>
              <strong>{b.batch}</strong>{' · '}
              {t('operations.batch.available', { quantity: b.quantity, unit: b.unit ?? '' })}
              {b.expirationDate && <>{' · '}{t('operations.batch.expires', { date: b.expirationDate.slice(0, 10) })}</>}
              {typeof b.daysToExpire === 'number' && <>{' '}{t('operations.batch.days', { count: b.daysToExpire })}</>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
