import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';

/** How long typing may pause before the value reaches the form (and the engine's messages update). */
export const COMMIT_DELAY_MS = 120;

/** Flushes of every mounted deferred widget, so a save never misses what was just typed. */
const pendingFlushes = new Set<() => void>();

/**
 * Hands every value still waiting for its commit to the form, then lets React and RJSF
 * apply them (two macrotasks) before the caller reads the form data.
 */
export async function flushPendingCommits(): Promise<void> {
  for (const flush of [...pendingFlushes]) flush();
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
}

/**
 * A text-like widget that paints each keystroke from local state and hands the value to
 * RJSF once typing pauses (or on blur): RJSF re-renders the whole form on every change, so a
 * 300-field form stays under a frame per keystroke only if that happens between keystrokes.
 */
export function withDeferredCommit(W: ComponentType<WidgetProps>): ComponentType<WidgetProps> {
  function Deferred(props: WidgetProps) {
    const [local, setLocal] = useState<unknown>(props.value);
    const pending = useRef<{ timer: ReturnType<typeof setTimeout>; value: unknown } | null>(null);
    const onChangeRef = useRef(props.onChange);
    onChangeRef.current = props.onChange;

    const flush = useCallback(() => {
      const p = pending.current;
      if (!p) return;
      clearTimeout(p.timer);
      pending.current = null;
      onChangeRef.current(p.value);
    }, []);

    useEffect(() => { if (!pending.current) setLocal(props.value); }, [props.value]);
    useEffect(() => {
      pendingFlushes.add(flush);
      return () => { pendingFlushes.delete(flush); flush(); };
    }, [flush]);

    const onChange = useCallback((value: unknown) => {
      setLocal(value);
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = { value, timer: setTimeout(flush, COMMIT_DELAY_MS) };
    }, [flush]);
    const onBlur = useCallback((id: string, value: unknown) => { flush(); props.onBlur(id, value); }, [flush, props]);
    return <W {...props} value={local} onChange={onChange} onBlur={onBlur} />;
  }
  Deferred.displayName = `Deferred(${W.displayName ?? W.name})`;
  return Deferred;
}
