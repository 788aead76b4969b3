import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toFieldPathId, type ErrorSchema, type FieldProps, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { errorText } from '../../api/errorText';
import { StateBadge } from '../../operations/StateBadge';
import { useMasterData } from '../useMasterData';
import { FieldLabel } from './FieldLabel';
import { addContainer, containerLines, findContainer, IBC_NUMBER, IBC_REF, removeContainer, type ContainerScope } from './containerLogic';

type Rec = Record<string, unknown>;
const isNode = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The line fields the item schema requires. */
function requiredOf(schema: RJSFSchema): string[] {
  const items = isNode(schema.items) ? (schema.items as RJSFSchema) : {};
  return Array.isArray(items.required) ? items.required : [];
}

/** The line fields typed beside each IBC (a batch preparation's quantity and seals); the IBC's own and hidden ones are not. */
function typedFields(schema: RJSFSchema, itemsUi: Rec): [string, RJSFSchema][] {
  const items = isNode(schema.items) ? (schema.items as RJSFSchema) : {};
  const props = isNode(items.properties) ? (items.properties as Record<string, RJSFSchema>) : {};
  return Object.entries(props).filter(([k]) => k !== IBC_REF && k !== IBC_NUMBER && (itemsUi[k] as Rec | undefined)?.['ui:widget'] !== 'hidden');
}

/**
 * The IBCs of an operation (lines `{ibc, ibcNumber, …}`): a serial number or NFC tag typed
 * or scanned (a scanner ends with Enter) is looked up and added with its status; an unknown
 * one shows the server's 404, one already listed is refused. Outside an operation form it is
 * RJSF's own list.
 */
export function ContainerLines(props: FieldProps) {
  const { t } = useTranslation();
  const { registry, md } = useMasterData();
  const scope = (props.registry.formContext as { containers?: ContainerScope } | undefined)?.containers;
  const lines = containerLines(props.formData);
  // The lines as they are now: a look-up answers after the user may have typed a seal or removed a line.
  const latest = useRef(lines);
  latest.current = lines;
  const itemsUi = isNode(props.uiSchema?.items) ? (props.uiSchema.items as Rec) : {};
  const ref = String(((itemsUi[IBC_REF] as Rec | undefined)?.['ui:options'] as Rec | undefined)?.ref ?? '');
  const workflow = useMemo(() => Object.values(registry.workflows).find((w) => w.entity === ref), [registry, ref]);
  const typed = useMemo(() => typedFields(props.schema, itemsUi), [props.schema, itemsUi]);
  const [text, setText] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [found, setFound] = useState<Record<string, Rec>>({});
  const readOnly = props.readonly || props.disabled;
  const path = props.fieldPathId.path;
  const items = isNode(props.schema.items) ? (props.schema.items as RJSFSchema) : {};
  const withNumber = isNode(items.properties) && IBC_NUMBER in items.properties;
  // A line names its IBC by serial where it carries one, else by id (the record's title is its serial).
  const keyOf = (l: Rec) => String(l[IBC_NUMBER] ?? l[IBC_REF] ?? '');

  // Lines already saved show their IBC's serial and status too.
  const missing = lines.map(keyOf).filter((k) => k && !found[k]).join('\n');
  useEffect(() => {
    if (!scope || !missing) return;
    let live = true;
    for (const key of missing.split('\n')) {
      (withNumber ? scope.lookup({ serial: key }) : md.get(ref, key)).then((r) => live && setFound((m) => ({ ...m, [key]: r })), () => undefined);
    }
    return () => { live = false; };
  }, [scope, missing, withNumber, md, ref]);

  if (!scope) {
    const ArrayField = props.registry.fields.ArrayField;
    return <ArrayField {...props} />;
  }

  const set = (next: Rec[]) => props.onChange((next.length ? next : undefined) as never, path, undefined, props.fieldPathId.$id);

  const add = () => {
    const value = text.trim();
    if (!value || busy) return;
    setBusy(true);
    setMessage(null);
    findContainer(scope, value).then((ibc) => {
      const r = addContainer(latest.current, ibc, withNumber);
      if ('duplicate' in r) { setMessage(t('operations.containers.duplicate', { serial: r.duplicate })); return; }
      setFound((m) => ({ ...m, [withNumber ? String(ibc.serial_number ?? '') : String(ibc.id)]: ibc }));
      set(r.lines);
      setText('');
    }, (e: unknown) => setMessage(errorText(e, t))).finally(() => setBusy(false));
  };

  const errorsAt = (node: Rec | undefined): string[] => (Array.isArray(node?.__errors) ? (node!.__errors as string[]) : []);
  const { SchemaField } = props.registry.fields;
  const ownErrors = errorsAt(props.errorSchema as Rec | undefined);

  return (
    <div className="tm-md-containers field" data-testid="container-lines">
      <FieldLabel props={props} htmlFor={`${props.fieldPathId.$id}-scan`} />
      {!readOnly && (
        <div className="p-inputgroup">
          <InputText id={`${props.fieldPathId.$id}-scan`} value={text} autoComplete="off" placeholder={t('operations.containers.scan')} aria-label={t('operations.containers.scan')}
            data-testid="container-scan" onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }} />
          <Button type="button" icon="pi pi-plus" label={t('operations.containers.add')} loading={busy} disabled={!text.trim()} onClick={add} data-testid="container-add" />
        </div>
      )}
      {message && <small className="p-error" role="alert" data-testid="container-message">{message}</small>}
      {ownErrors.map((m) => <small key={m} className="p-error">{m}</small>)}
      <ul className="tm-md-containers__lines" data-testid="container-table">
        {lines.map((l, i) => {
          const ibc = found[keyOf(l)];
          const serial = String(l[IBC_NUMBER] ?? ibc?.serial_number ?? l[IBC_REF] ?? '');
          const rowId = toFieldPathId(i, props.registry.globalFormOptions, props.fieldPathId);
          const rowErrors = (props.errorSchema as Rec | undefined)?.[String(i)] as Rec | undefined;
          return (
            <li key={`${serial}|${i}`} className="tm-md-containers__line" data-testid="container-line" data-serial={serial}>
              <div className="tm-md-containers__head">
                <strong>{serial}</strong>
                {workflow && ibc ? <StateBadge workflow={workflow} state={ibc[workflow.stateField]} /> : null}
                {!readOnly && <Button type="button" icon="pi pi-trash" text aria-label={`${t('operations.containers.remove')} ${serial}`} onClick={() => set(removeContainer(lines, i))} data-testid="container-remove" />}
              </div>
              {errorsAt(rowErrors).map((m) => <small key={m} className="p-error">{m}</small>)}
              {typed.length > 0 && (
                <div className="tm-md-containers__fields">
                  {/* The other line fields are the form's own (a seal, a quantity, a batch picker), at their path in the list. */}
                  {typed.map(([k, sub]) => (
                    <SchemaField key={k} name={k} schema={sub} uiSchema={itemsUi[k] as UiSchema | undefined} formData={l[k]} required={requiredOf(props.schema).includes(k)}
                      errorSchema={rowErrors?.[k] as ErrorSchema | undefined} fieldPathId={toFieldPathId(k, props.registry.globalFormOptions, rowId)}
                      onChange={props.onChange} onBlur={props.onBlur} onFocus={props.onFocus} registry={props.registry} disabled={props.disabled} readonly={props.readonly} />
                  ))}
                </div>
              )}
            </li>
          );
        })}
        {lines.length === 0 && <li className="tm-md-containers__none">{t('operations.containers.empty')}</li>}
      </ul>
    </div>
  );
}
