import { memo, useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import Form, { Templates as PrimeTemplates } from '@rjsf/primereact';
import validator from '@rjsf/validator-ajv8';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { Button } from 'primereact/button';
import { localize } from '../../../engine/src/index';
import type { Rec } from './api';
import { chunkedObjectFieldTemplate } from './chunkedObject';
import { FieldErrorsContext, FieldErrorTemplate } from './fieldErrors';
import { rjsfTranslator } from './rjsfStrings';
import { useEntityForm, type RecordStore } from './useEntityForm';
import { useMasterData } from './useMasterData';
import { MD_FIELDS, MD_WIDGETS } from './widgets/registry';
import { flushPendingCommits } from './widgets/deferred';

/**
 * Defaults fill required fields only, so an extension nobody opened stays absent (and unvalidated).
 * An option list is a `oneOf` of consts: RJSF would take its first const as the default, silently
 * choosing a value (even a disabled option) the user never picked and hiding "A value is mandatory".
 */
const DEFAULTS = { emptyObjectFields: 'populateRequiredDefaults', constAsDefaults: 'skipOneOf' } as const;
/** Long forms render in blocks of fields (./chunkedObject): only the blocks on screen are laid out and painted. */
const TEMPLATES = { FieldErrorTemplate, ObjectFieldTemplate: chunkedObjectFieldTemplate(PrimeTemplates.ObjectFieldTemplate!) };

/** RJSF with props that stay the same while the user types, so it never rebuilds its state. */
const StableForm = memo(function StableForm(p: { schema: RJSFSchema; uiSchema: UiSchema; formData: Rec; formContext: object; translateString: ReturnType<typeof rjsfTranslator>; onChange: (v: Rec) => void; onSubmit: () => void }) {
  return (
    <Form
      schema={p.schema}
      uiSchema={p.uiSchema}
      formData={p.formData}
      validator={validator}
      noValidate
      showErrorList={false}
      experimental_defaultFormStateBehavior={DEFAULTS}
      widgets={MD_WIDGETS}
      fields={MD_FIELDS}
      templates={TEMPLATES}
      formContext={p.formContext}
      translateString={p.translateString}
      onChange={(e: IChangeEvent) => p.onChange((e.formData ?? {}) as Rec)}
      onSubmit={p.onSubmit}
    />
  );
});

export interface EntityFormProps {
  entity: string;
  id?: string;
  onSaved: (record: Rec) => void;
  onCancel: () => void;
  /** Reads and saves through another API than master data (operation records). */
  store?: RecordStore;
  /** More for the widgets (the batch picker's scope); the form's current value is always there as `value`. */
  context?: object;
  /** Fields this screen does not ask for (dotted paths). */
  omit?: readonly string[];
}

/** A generated form: RJSF renders the engine's schema; the engine's messages are the errors shown. */
export function EntityForm({ entity, id, onSaved, onCancel, store, context, omit }: EntityFormProps) {
  const { t } = useTranslation();
  const { registry, lang } = useMasterData();
  const f = useEntityForm(entity, id, store, omit);
  const formContext = useMemo(() => ({ ...context, entity, value: f.value }), [context, entity, f.value]);
  // RJSF rebuilds its data from `formData` whenever another prop changes (the schema in the shell's
  // language, which reaches the feature frame late; the screen's context): it gets what the user typed,
  // which is what Save sends, not the record as loaded. Taken only then, so typing never rebuilds the form.
  const formData = useMemo(() => f.value.current, [f.initial, f.built, formContext, f.value]);
  const translateString = useMemo(() => rjsfTranslator(t), [t]);
  const submitLatest = useRef<() => void>(() => undefined);
  const submitRef = useCallback(() => submitLatest.current(), []);
  const def = registry.entities[entity];
  if (!f.built || !def) return <div role="alert">{t('masterdata.unknownEntity', { entity })}</div>;
  if (f.loadError) return <div className="p-message p-message-error" role="alert">{f.loadError}</div>;
  if (!f.initial) return <div aria-busy="true">{t('shell.loading')}</div>;
  const title = `${t(id ? 'masterdata.form.edit' : 'masterdata.form.new')} · ${localize(def.label, lang)}`;
  const submit = async () => {
    await flushPendingCommits();
    const saved = await f.save();
    if (saved) onSaved(saved);
  };
  submitLatest.current = () => void submit();
  return (
    <section className="tm-md-form" data-testid="entity-form" data-entity={entity} data-purpose={id ? 'edit' : 'create'}>
      <h2>{title}</h2>
      {(f.summary || f.messages.length > 0) && (
        <div className="p-message p-message-error tm-md-summary" role="alert" data-testid="form-summary">
          {f.summary && <strong>{f.summary}</strong>}
          <ul>{f.messages.map((m, i) => <li key={`${m.field}:${i}`} data-field={m.field ?? ''}>{m.message}</li>)}</ul>
        </div>
      )}
      <FieldErrorsContext.Provider value={f.errors}>
        <StableForm key={`${entity}:${id ?? 'new'}`} schema={f.built.schema} uiSchema={f.built.uiSchema} formData={formData} formContext={formContext} translateString={translateString} onChange={f.onChange} onSubmit={submitRef} />
      </FieldErrorsContext.Provider>
      <div className="tm-md-form__actions">
        <Button label={t('masterdata.action.save')} icon="pi pi-check" loading={f.saving} onClick={() => void submit()} data-testid="form-save" />
        <Button label={t('masterdata.action.cancel')} outlined onClick={onCancel} data-testid="form-cancel" />
      </div>
    </section>
  );
}
