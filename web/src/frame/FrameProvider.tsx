import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { FrameContext, type FrameValue } from './frameContext';
import type { OutboundMessage } from './messages';

/** Holds the one embedded feature frame the shell shows, and what it announced. */
export function FrameProvider({ children }: { children: ReactNode }) {
  const target = useRef<{ win: Window; origin: string } | null>(null);
  const [ready, setReadyState] = useState(false);
  const [helpEnabled, setHelpEnabled] = useState(false);

  const attach = useCallback((win: Window, origin: string) => {
    target.current = { win, origin };
    setReadyState(false);
    setHelpEnabled(false);
  }, []);
  const detach = useCallback((win: Window) => {
    if (target.current?.win !== win) return;
    target.current = null;
    setReadyState(false);
    setHelpEnabled(false);
  }, []);
  const post = useCallback((message: OutboundMessage) => {
    const t = target.current;
    if (t) t.win.postMessage(message, t.origin);
  }, []);
  const setReady = useCallback(() => setReadyState(true), []);

  const value = useMemo<FrameValue>(
    () => ({ ready, helpEnabled, attach, detach, setReady, setHelp: setHelpEnabled, post }),
    [ready, helpEnabled, attach, detach, setReady, post],
  );
  return <FrameContext.Provider value={value}>{children}</FrameContext.Provider>;
}
