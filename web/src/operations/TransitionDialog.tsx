import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { localize, type FieldDef } from '../../../engine/src/index';
import { cellText } from '../../../engine/src/list/index';
import { errorText } from '../api/errorText';
import type { Rec } from '../masterdata/api';
import { useMasterData } from '../masterdata/useMasterData';
import type { AllowedTransition } from './api';
import { useOperation } from './context';
import { commentMissing, inputParts, inputRoots, transitionBody } from './model';

const INPUT_TYPE: Partial<Record<FieldDef['type'], string>> = { number: 'number', integer: 'number', date: 'date', datetime: 'datetime-local' };

/** One typed value of a transition's input: a number, date or text input after the field's type. */
function ValueInput({ field, value, onChange, label, testId }: { field: FieldDef; value: unknown; onChange: (v: unknown) => void; label: string; testId: string }) {
  const type = INPUT_TYPE[field.type] ?? 'text';
  const numeric = type === 'number';
  return (
    <input className="p-inputtext p-component" type={type} aria-label={label} data-testid={testId} min={numeric ? 0 : undefined} step={numeric ? 'any' : undefined}
      value={value === undefined || value === null ? '' : String(value)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : numeric ? Number(e.target.value) : e.target.value)} />
  );
}

/**
 * Taking a transition that asks for something: its input fields (per-line rejected quantities
 * for a partial reject) and its comment; the server's refusal is shown in the user's language.
 */
export function TransitionDialog({ transition, record, onClose, onDone }: { transition: AllowedTransition; record: Rec; onClose: () => void; onDone: (record: Rec) => void }) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const { view, ops } = useOperation();
  const parts = useMemo(() => inputParts(registry, view.workflow, transition.input), [registry, view.workflow, transition.input]);
  const [values, setValues] = useState<Rec>(() => structuredClone(Object.fromEntries(inputRoots(transition.input).map((f) => [f, record[f]]))));
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const asks = transition.comment ?? 'none';
  const label = localize(transition.label, lang);

  const setLine = (field: string, i: number, sub: string, v: unknown) => setValues((cur) => {
    const rows = Array.isArray(cur[field]) ? [...(cur[field] as Rec[])] : [];
    rows[i] = { ...rows[i], [sub]: v };
    return { ...cur, [field]: rows };
  });

  const send = () => {
    setSending(true);
    setError(null);
    ops.transition(view.workflow.name, String(record.id), transition.id, transitionBody(transition, values, comment))
      .then((a) => onDone(a.record), (e: unknown) => setError(errorText(e, t)))
      .finally(() => setSending(false));
  };

  const footer = (
    <div>
      <Button label={t('masterdata.action.cancel')} outlined onClick={onClose} data-testid="transition-cancel" />
      <Button label={label} icon="pi pi-check" loading={sending} disabled={commentMissing(asks, comment)} onClick={send} data-testid="transition-confirm" />
    </div>
  );
  return (
    <Dialog header={label} visible onHide={onClose} footer={footer} style={{ width: 'min(46rem, 96vw)' }} data-testid="transition-dialog" data-transition={transition.id}>
      {parts.length === 0 && asks === 'none' && <p>{t('operations.transition.confirm', { transition: label })}</p>}
      {parts.map((p) => p.kind === 'lines' ? (
        <table key={p.field} className="tm-op-table" data-testid="transition-lines">
          <thead><tr>{[...p.shown, ...p.editable].map((f) => <th key={f.id}>{localize(f.label, lang)}</th>)}</tr></thead>
          <tbody>
            {((values[p.field] as Rec[] | undefined) ?? []).map((line, i) => (
              <tr key={i}>
                {p.shown.map((f) => <td key={f.id}>{cellText({ path: f.id, label: '', field: f, sortable: false }, line, lang)}</td>)}
                {p.editable.map((f) => (
                  <td key={f.id}><ValueInput field={f} value={line[f.id]} label={`${localize(f.label, lang)} ${i + 1}`} testId={`input-${f.id}-${i}`} onChange={(v) => setLine(p.field, i, f.id, v)} /></td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <label key={p.field.id} className="tm-op-input">{localize(p.field.label, lang)}
          <ValueInput field={p.field} value={values[p.field.id]} label={localize(p.field.label, lang)} testId={`input-${p.field.id}`} onChange={(v) => setValues((cur) => ({ ...cur, [p.field.id]: v }))} />
        </label>
      ))}
      {asks !== 'none' && (
        <label className="tm-op-input">{t(asks === 'required' ? 'operations.transition.commentRequired' : 'operations.transition.comment')}
          <InputTextarea value={comment} onChange={(e) => setComment(e.target.value)} rows={3} data-testid="transition-comment" />
        </label>
      )}
      {error && <div className="p-message p-message-error" role="alert" data-testid="transition-error">{error}</div>}
    </Dialog>
  );
}
