import { createContext, useContext, useSyncExternalStore } from 'react';
import type { FieldErrorProps } from '@rjsf/utils';
import type { FieldMessage } from './formSchema';

/**
 * The messages shown under each field, kept outside RJSF's props: a message appearing or
 * going re-renders only the fields concerned, never the 300-field form (RJSF recomputes its
 * whole state whenever a prop changes).
 */
export class FieldErrorStore {
  private byPath = new Map<string, string[]>();
  private listeners = new Set<() => void>();

  set(messages: readonly FieldMessage[]): void {
    const next = new Map<string, string[]>();
    for (const m of messages) if (m.field) next.set(m.field, [...(next.get(m.field) ?? []), m.message]);
    const changed = new Set([...this.byPath.keys(), ...next.keys()].filter((k) => (this.byPath.get(k) ?? []).join('\n') !== (next.get(k) ?? []).join('\n')));
    if (changed.size === 0) return;
    // Unchanged paths keep their array, so their fields' snapshots stay equal and they skip rendering.
    for (const k of changed) if (!next.has(k)) this.byPath.delete(k);
    for (const [k, v] of next) if (changed.has(k)) this.byPath.set(k, v);
    for (const l of this.listeners) l();
  }

  get(path: string): string[] | undefined {
    return this.byPath.get(path);
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

export const FieldErrorsContext = createContext<FieldErrorStore | null>(null);

/** RJSF's FieldErrorTemplate, fed by the store: the engine's and the server's messages under the field. */
export function FieldErrorTemplate(props: FieldErrorProps) {
  const store = useContext(FieldErrorsContext);
  const path = props.fieldPathId.path.join('.');
  const messages = useSyncExternalStore(store?.subscribe ?? noop, () => store?.get(path), () => undefined);
  if (!messages?.length) return null;
  return (
    <div id={`${props.fieldPathId.$id}__error`} className="tm-md-field-error" role="alert">
      {messages.map((m) => <small key={m} className="p-error">{m}</small>)}
    </div>
  );
}

const noop = () => () => undefined;
