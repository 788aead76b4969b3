import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useServices } from '../app/services';

interface BusyValue {
  busy: boolean;
  /** Marks one more thing loading; call the returned function when it is done. */
  add(): () => void;
}

const BusyContext = createContext<BusyValue>({ busy: false, add: () => () => undefined });

/** Loading = API requests in flight, a frame loading, or a screen's code loading (the progress bar of SPEC 2.1). */
export function BusyProvider({ children }: { children: ReactNode }) {
  const { api } = useServices();
  const [count, setCount] = useState(0);
  const [requests, setRequests] = useState(0);
  useEffect(() => api.onActivity(setRequests), [api]);
  const add = useCallback(() => {
    setCount((c) => c + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      setCount((c) => c - 1);
    };
  }, []);
  const value = useMemo(() => ({ busy: count + requests > 0, add }), [count, requests, add]);
  return <BusyContext.Provider value={value}>{children}</BusyContext.Provider>;
}

export function useBusy(): boolean {
  return useContext(BusyContext).busy;
}

export function useBusyWhile(active: boolean): void {
  const { add } = useContext(BusyContext);
  useEffect(() => (active ? add() : undefined), [active, add]);
}

/** A Suspense fallback that keeps the progress bar moving while a screen's code loads. */
export function BusyFallback() {
  useBusyWhile(true);
  return <div className="tm-screen-loading" aria-hidden="true" />;
}
