import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';
import { FieldLabel } from './FieldLabel';
import { InputText } from 'primereact/inputtext';
import { Button } from 'primereact/button';
import type { Rec } from '../api';
import { useDebounced } from '../useDebounced';
import { useMasterData } from '../useMasterData';
import { recordTitle, referenceId } from '../../../../engine/src/list/index';
import { pickerMinChars } from './pickerLogic';

/**
 * A reference: searched on the server after minChars, debounced, 20 a page with more on
 * scroll; shows the record's title field; stores the id (the server checks it exists).
 */
export function ReferencePicker(props: FieldProps) {
  const { md, registry, lang, settings } = useMasterData();
  const { t } = useTranslation();
  const ui = (props.uiSchema?.['ui:options'] ?? {}) as Record<string, unknown>;
  const ref = String(ui.ref ?? '');
  const target = registry.entities[ref];
  const min = pickerMinChars(String(ui.widget ?? 'picker'), settings, typeof ui.minChars === 'number' ? ui.minChars : undefined);
  const id = referenceId(props.formData);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Rec[]>([]);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);
  const q = useDebounced(text, settings.picker.debounceMs);
  const readOnly = props.readonly || props.disabled;
  const loading = useRef(false);
  // The latest search request's number: an older one's answer (a text since changed) is ignored.
  const request = useRef(0);
  // Whether the user has typed since the field's value was last set: its title, arriving after that (an
  // edit form loads it; a new language fetches it again), would overwrite their search.
  const typed = useRef(false);
  const titled = useRef(id);

  useEffect(() => {
    if (id !== titled.current) { titled.current = id; typed.current = false; }
    if (typed.current) return;
    if (!id || !ref) { setText(''); return; }
    let live = true;
    const show = (title: string) => { if (live && !typed.current) setText(title); };
    md.get(ref, id).then((r) => show(recordTitle(target, r, lang)), () => show(id));
    return () => { live = false; };
  }, [id, ref, md, target, lang]);

  const load = (p: number) => {
    // A further page asked while one is coming is a repeated scroll event; a new search (page 1) always goes.
    if (p > 1 && loading.current) return;
    const n = ++request.current;
    loading.current = true;
    md.list(ref, { q, page: p, pageSize: settings.picker.pageSize, state: 1 })
      .then((a) => { if (n === request.current) { setItems((prev) => (p === 1 ? a.data : [...prev, ...a.data])); setTotal(a.total); setPage(p); } })
      .finally(() => { if (n === request.current) loading.current = false; });
  };

  useEffect(() => {
    if (!open || q.trim().length < min) { request.current++; loading.current = false; setItems([]); setTotal(0); return; }
    load(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q, open, min, ref]);

  const choose = (r: Rec | undefined) => {
    props.onChange((r ? String(r.id) : undefined) as never, props.fieldPathId.path, undefined, props.fieldPathId.$id);
    typed.current = false;
    setText(r ? recordTitle(target, r, lang) : '');
    setOpen(false);
  };

  const inputId = props.fieldPathId.$id;
  return (
    <div className="tm-md-picker field" data-testid="reference-picker" data-ref={ref}>
      <FieldLabel props={props} />
      <div className="p-inputgroup">
        <InputText id={inputId} value={text} disabled={readOnly} autoComplete="off" role="combobox" aria-expanded={open}
          onChange={(e) => { typed.current = true; setText(e.target.value); setOpen(true); }} onFocus={() => setOpen(true)} onBlur={() => setTimeout(() => setOpen(false), 200)} />
        {id && !readOnly && <Button type="button" icon="pi pi-times" text aria-label={t('common.clear')} onClick={() => choose(undefined)} />}
      </div>
      {open && items.length > 0 && (
        <ul className="tm-md-picker__list p-autocomplete-items" role="listbox" data-testid="picker-options"
          onScroll={(e) => { const el = e.currentTarget; if (el.scrollTop + el.clientHeight >= el.scrollHeight - 8 && items.length < total) load(page + 1); }}>
          {items.map((r) => (
            <li key={String(r.id)} role="option" aria-selected={String(r.id) === id} className="p-autocomplete-item" onMouseDown={(e) => { e.preventDefault(); choose(r); }}>
              {recordTitle(target, r, lang)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
