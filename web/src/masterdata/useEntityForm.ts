import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formOf } from '../../../engine/src/index';
import { errorText } from '../api/errorText';
import type { ApiRequestError } from '../api/errors';
import { messageText } from '../imports/messages';
import type { Rec } from './api';

/** Where a form reads and saves its record: the master-data API unless a screen gives its own (operations). */
export interface RecordStore {
  get(entity: string, id: string): Promise<Rec>;
  create(entity: string, value: Rec): Promise<Rec>;
  update(entity: string, id: string, value: Rec): Promise<Rec>;
}
import { FieldErrorStore } from './fieldErrors';
import { buildForm, pruneEmpty, visibleMessages, type FieldMessage } from './formSchema';
import { useMasterData } from './useMasterData';

/**
 * One record's form state: the generated schema for create or edit, the engine's messages
 * while typing, and the server's messages at their fields after a save. RJSF is left
 * uncontrolled with props that never change while typing; messages go through `errors`.
 */
export function useEntityForm(entity: string, id: string | undefined, store?: RecordStore, omit?: readonly string[]) {
  const { md, registry, lang } = useMasterData();
  const records = store ?? md;
  const { t } = useTranslation();
  const purpose = id ? 'edit' : 'create';
  const built = useMemo(() => buildForm(registry, entity, lang, purpose, omit), [registry, entity, lang, purpose, omit]);
  const fields = useMemo(() => formOf(registry, entity)?.fields ?? [], [registry, entity]);
  const errors = useMemo(() => new FieldErrorStore(), []);
  const [initial, setInitial] = useState<Rec | null>(id ? null : {});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [messages, setMessages] = useState<FieldMessage[]>([]);
  const [summary, setSummary] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const value = useRef<Rec>({});
  const submitted = useRef(false);
  const shown = useRef('[]');

  useEffect(() => {
    submitted.current = false;
    if (!id) { setInitial({}); value.current = {}; return; }
    let live = true;
    setInitial(null);
    records.get(entity, id).then((r) => { if (live) { value.current = r; setInitial(r); } }, (e: Error) => live && setLoadError(e.message));
    return () => { live = false; };
  }, [records, entity, id]);

  const show = useCallback((next: FieldMessage[]) => {
    errors.set(next);
    const key = JSON.stringify(next);
    if (key === shown.current) return; // the summary re-renders only when the messages change
    shown.current = key;
    setMessages(next);
  }, [errors]);

  // The engine writes English; the user reads the catalogue's text in their language.
  const say = useCallback((m: { code?: string; message: string; field?: string; params?: Record<string, unknown> }) =>
    (m.code ? messageText({ code: m.code, message: m.message, field: m.field, params: m.params ?? {} }, lang, t, fields) : m.message), [lang, t, fields]);
  const check = useCallback((v: Rec) => (built ? visibleMessages(built.validate(pruneEmpty(v), initial ?? undefined), submitted.current, say) : []), [built, initial, say]);

  const onChange = useCallback((v: Rec) => {
    value.current = v;
    show(check(v));
  }, [check, show]);

  /** Validates everything, then saves; resolves to the saved record or null. */
  const save = useCallback(async (): Promise<Rec | null> => {
    submitted.current = true;
    const local = check(value.current);
    show(local);
    if (local.length) { setSummary(null); return null; }
    setSaving(true);
    try {
      const body = pruneEmpty(value.current) as Rec;
      const saved = id ? await records.update(entity, id, body) : await records.create(entity, body);
      setSummary(null);
      return saved;
    } catch (e) {
      const err = e as ApiRequestError;
      show((err.details ?? []).map((d) => ({ field: d.field, message: say(d) })));
      setSummary(errorText(err, t));
      return null;
    } finally {
      setSaving(false);
    }
  }, [check, show, say, t, id, records, entity]);

  return { built, initial, loadError, messages, summary, saving, errors, onChange, save, value };
}
