import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../../engine/src/index';
import {
  choicesOf, coerce, collectLines, fieldLabel, fieldSchema, geoFields, holdsSerial, inputKind, lineProps, nestFields, optionTitle, requiredFields, titleOf, type Line,
} from '../definitions';
import { hasNfc, readTag } from '../scan/nfc';
import { ScanButton } from '../scan/ScanButton';
import { useMobile } from '../services';
import type { FeatureDef, FieldSchema, MobileRecord } from '../types';

export interface FormResult {
  fields: Record<string, unknown>;
  comment?: string;
}

/** A typed line and the key React keeps its row by (rows are removed from the middle). */
interface KeyedLine {
  key: number;
  values: Line;
}
let lineKeys = 0;
const newLine = (): KeyedLine => ({ key: ++lineKeys, values: {} });

/**
 * The form of one action (a transition's fields, or a create's): one input per field, chosen by
 * its JSON Schema (enum: a choice; x-ref: a picker over the entity's kept master data; number,
 * boolean, date…; an array of objects: lines, each with its properties' inputs); a "use my
 * location" button when the fields hold a latitude and a longitude.
 */
export function ActionForm({ feature, heading, fields, comment, required = [], onSubmit, onCancel, initial = {} }: {
  feature: FeatureDef; heading: string; fields: string[]; comment: 'none' | 'optional' | 'required'; required?: string[];
  onSubmit: (r: FormResult) => void; onCancel: () => void; initial?: Record<string, string | boolean>;
}) {
  const m = useMobile();
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string | boolean>>(initial);
  // Lines of the array-of-objects fields; a required array starts with one empty line.
  const [lines, setLines] = useState<Record<string, KeyedLine[]>>(() => {
    const req = requiredFields(feature, fields, required);
    return Object.fromEntries(fields.filter((f) => inputKind(fieldSchema(feature, f)) === 'lines').map((f) => [f, req.includes(f) ? [newLine()] : []]));
  });
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
    setError(null);
    const req = requiredFields(feature, fields, required);
    const typed: Record<string, unknown> = {};
    const missing = (field: string) => setError(t('feature.required', { field }));
    for (const f of fields) {
      const schema = fieldSchema(feature, f);
      if (inputKind(schema) === 'lines') {
        const { value, missing: blank } = collectLines(schema.items!, (lines[f] ?? []).map((l) => l.values));
        if (blank) return missing(t('feature.lineField', { field: titleOf(schema.items!.properties![blank.prop], blank.prop, m.lang), n: blank.line + 1 }));
        if (!value.length && req.includes(f)) return missing(fieldLabel(feature, f, m.lang));
        typed[f] = value.length ? value : undefined;
      } else {
        if (req.includes(f) && (values[f] === undefined || values[f] === '')) return missing(fieldLabel(feature, f, m.lang));
        typed[f] = values[f] === undefined ? undefined : coerce(schema, values[f]);
      }
    }
    if (comment === 'required' && !note.trim()) return missing(t('feature.comment'));
    onSubmit({ fields: nestFields(typed), ...(note.trim() ? { comment: note.trim() } : {}) });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="action-heading" data-testid="action-form">
      <h3 id="action-heading">{heading}</h3>
      {geo ? (
        <button type="button" className="btn" onClick={locate} disabled={locating}>📍 {locating ? t('feature.locating') : t('feature.useLocation')}</button>
      ) : null}
      {fields.map((f) => {
        const schema = fieldSchema(feature, f);
        const label = fieldLabel(feature, f, m.lang);
        return inputKind(schema) === 'lines'
          ? <LinesInput key={f} name={f} items={schema.items!} label={label} lines={lines[f] ?? []} onChange={(l) => setLines((old) => ({ ...old, [f]: l }))} />
          : <FieldInput key={f} schema={schema} name={f} label={label} value={values[f]} onChange={(v) => set(f, v)} />;
      })}
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

/**
 * An array of objects: one small fieldset per line with an input for each property the line asks
 * (`lineProps`: an optional reference the server derives from a sibling is left out), a scan
 * button beside an IBC serial, "Remove" per line and "Add line".
 */
function LinesInput({ name, items, label, lines, onChange }: { name: string; items: FieldSchema; label: string; lines: KeyedLine[]; onChange: (lines: KeyedLine[]) => void }) {
  const m = useMobile();
  const { t } = useTranslation();
  const props = lineProps(items);
  const set = (i: number, prop: string, v: string | boolean) => onChange(lines.map((l, j) => (j === i ? { ...l, values: { ...l.values, [prop]: v } } : l)));
  return (
    <fieldset className="lines stack" data-testid={`lines-${name}`}>
      <legend>{label}</legend>
      {lines.map((line, i) => (
        <fieldset key={line.key} className="line stack" data-testid={`line-${name}-${i}`}>
          <legend>{t('feature.line', { n: i + 1 })}</legend>
          {props.map((p) => {
            const title = titleOf(items.properties![p], p, m.lang);
            const input = <FieldInput key={p} schema={items.properties![p]} name={`${name}.${i}.${p}`} label={title} value={line.values[p]} onChange={(v) => set(i, p, v)} grow />;
            return holdsSerial(p) ? <div key={p} className="row">{input}<ScanButton label={title} onSerial={(v) => set(i, p, v)} /></div> : input;
          })}
          <button type="button" className="btn small danger" data-testid={`remove-line-${name}-${i}`} onClick={() => onChange(lines.filter((_, j) => j !== i))}>{t('feature.removeLine')}</button>
        </fieldset>
      ))}
      <button type="button" className="btn" data-testid={`add-line-${name}`} onClick={() => onChange([...lines, newLine()])}>＋ {t('feature.addLine')}</button>
    </fieldset>
  );
}

function FieldInput({ schema, name, label, value, onChange, grow }: {
  schema: FieldSchema; name: string; label: string; value: string | boolean | undefined; onChange: (v: string | boolean) => void; grow?: boolean;
}) {
  const m = useMobile();
  const { t } = useTranslation();
  const kind = inputKind(schema, name);
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
            {choicesOf(schema)!.map((c) => <option key={String(c.value)} value={String(c.value)}>{localize(c.label, m.lang) || String(c.value)}</option>)}
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
        <label className={grow ? 'grow' : undefined}>{label}
          <input name={name} type={type} step={kind === 'number' ? 'any' : undefined} inputMode={kind === 'integer' ? 'numeric' : kind === 'number' ? 'decimal' : undefined}
            min={schema.minimum} max={schema.maximum} value={text} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    }
  }
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
