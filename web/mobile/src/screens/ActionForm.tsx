import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../../engine/src/index';
import { coerce, fieldLabel, fieldSchema, geoFields, inputKind, nestFields, requiredFields } from '../definitions';
import { hasNfc, readTag } from '../scan/nfc';
import { useMobile } from '../services';
import type { FeatureDef, MobileRecord } from '../types';

export interface FormResult {
  fields: Record<string, unknown>;
  comment?: string;
}

/**
 * The form of one action (a transition's fields, or a create's): one input per field, chosen by
 * its JSON Schema (enum: a choice; x-ref: a picker over the entity's kept master data; number,
 * boolean, date…); a "use my location" button when the fields hold a latitude and a longitude.
 */
export function ActionForm({ feature, heading, fields, comment, required = [], onSubmit, onCancel, initial = {} }: {
  feature: FeatureDef; heading: string; fields: string[]; comment: 'none' | 'optional' | 'required'; required?: string[];
  onSubmit: (r: FormResult) => void; onCancel: () => void; initial?: Record<string, string | boolean>;
}) {
  const m = useMobile();
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string | boolean>>(initial);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [locating, setLocating] = useState(false);
  const geo = geoFields(fields);
  const set = (name: string, v: string | boolean) => setValues((old) => ({ ...old, [name]: v }));

  const locate = () => {
    setLocating(true);
    setError(null);
    navigator.geolocation.getCurrentPosition((pos) => {
      setLocating(false);
      setValues((old) => ({ ...old, [geo!.lat]: String(pos.coords.latitude), [geo!.lng]: String(pos.coords.longitude) }));
    }, (e) => {
      setLocating(false);
      setError(t('feature.locationFailed', { message: e.message }));
    }, { enableHighAccuracy: true, timeout: 20_000 });
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = requiredFields(feature, fields, required).find((f) => values[f] === undefined || values[f] === '');
    if (missing) return setError(t('feature.required', { field: fieldLabel(feature, missing, m.lang) }));
    if (comment === 'required' && !note.trim()) return setError(t('feature.required', { field: t('feature.comment') }));
    const typed = Object.fromEntries(fields.map((f) => [f, values[f] === undefined ? undefined : coerce(fieldSchema(feature, f), values[f])]));
    onSubmit({ fields: nestFields(typed), ...(note.trim() ? { comment: note.trim() } : {}) });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="action-heading" data-testid="action-form">
      <h3 id="action-heading">{heading}</h3>
      {geo ? (
        <button type="button" className="btn" onClick={locate} disabled={locating}>📍 {locating ? t('feature.locating') : t('feature.useLocation')}</button>
      ) : null}
      {fields.map((f) => <FieldInput key={f} feature={feature} name={f} value={values[f]} onChange={(v) => set(f, v)} />)}
      {comment !== 'none' ? (
        <label>{t('feature.comment')}
          <textarea name="comment" value={note} onChange={(e) => setNote(e.target.value)} rows={3} />
        </label>
      ) : null}
      {error ? <p className="error" role="alert">{error}</p> : null}
      <div className="row">
        <button type="submit" className="btn primary grow">{t('feature.save')}</button>
        <button type="button" className="btn" onClick={onCancel}>{t('feature.cancel')}</button>
      </div>
    </form>
  );
}

function FieldInput({ feature, name, value, onChange }: { feature: FeatureDef; name: string; value: string | boolean | undefined; onChange: (v: string | boolean) => void }) {
  const m = useMobile();
  const { t } = useTranslation();
  const schema = fieldSchema(feature, name);
  const kind = inputKind(schema, name);
  const label = fieldLabel(feature, name, m.lang);
  const text = typeof value === 'string' ? value : '';
  switch (kind) {
    case 'boolean':
      return (
        <label className="check"><input type="checkbox" name={name} checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}</label>
      );
    case 'select':
      return (
        <label>{label}
          <select name={name} value={text} onChange={(e) => onChange(e.target.value)}>
            <option value="">{t('feature.choose')}</option>
            {schema.enum!.map((v, i) => <option key={String(v)} value={String(v)}>{localize(schema['x-enumLabels']?.[i], m.lang) || String(v)}</option>)}
          </select>
        </label>
      );
    case 'reference':
      return <RefPicker entity={schema['x-ref']!} name={name} label={label} value={text} onChange={onChange} />;
    case 'nfc':
      return (
        <label>{label}
          <span className="row">
            <input name={name} className="grow" value={text} onChange={(e) => onChange(e.target.value)} autoComplete="off" />
            {hasNfc() ? <button type="button" className="btn" onClick={() => void readTag(AbortSignal.timeout(30_000)).then((r) => onChange(r.tag), () => undefined)}>📶 {t('feature.readNfc')}</button> : null}
          </span>
        </label>
      );
    case 'textarea':
      return <label>{label}<textarea name={name} value={text} onChange={(e) => onChange(e.target.value)} rows={3} /></label>;
    default: {
      const type = { number: 'number', integer: 'number', date: 'date', datetime: 'datetime-local', text: 'text' }[kind as string] ?? 'text';
      return (
        <label>{label}
          <input name={name} type={type} step={kind === 'number' ? 'any' : undefined} inputMode={kind === 'integer' ? 'numeric' : kind === 'number' ? 'decimal' : undefined}
            min={schema.minimum} max={schema.maximum} value={text} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    }
  }
}

/** The title a master-data record is shown by (its name, else the first text field, else its id). */
export function optionTitle(r: MobileRecord): string {
  for (const k of ['name', 'title', 'label', 'division_name', 'company_name', 'code']) if (typeof r[k] === 'string' && r[k]) return r[k] as string;
  const first = Object.entries(r).find(([k, v]) => k !== 'id' && typeof v === 'string' && v);
  return first ? String(first[1]) : r.id;
}

/** A reference: a choice over the entity's active records, kept from the last time online; a filter when there are many. */
function RefPicker({ entity, name, label, value, onChange }: { entity: string; name: string; label: string; value: string; onChange: (v: string) => void }) {
  const m = useMobile();
  const { t } = useTranslation();
  const [options, setOptions] = useState<MobileRecord[] | null>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    let live = true;
    void m.options(entity).then((o) => live && setOptions(o));
    return () => {
      live = false;
    };
  }, [m, entity]);
  const shown = (options ?? []).filter((o) => !filter || optionTitle(o).toLowerCase().includes(filter.toLowerCase()) || o.id === value);
  return (
    <label>{label}
      {options && options.length > 10 ? (
        <input type="search" aria-label={`${label}: ${t('feature.search')}`} placeholder={t('feature.search')} value={filter} onChange={(e) => setFilter(e.target.value)} />
      ) : null}
      <select name={name} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{options === null ? t('app.loading') : t('feature.choose')}</option>
        {shown.map((o) => <option key={o.id} value={o.id}>{optionTitle(o)}</option>)}
      </select>
      {options && options.length === 0 ? <span className="muted">{t('feature.noOptions')}</span> : null}
    </label>
  );
}
