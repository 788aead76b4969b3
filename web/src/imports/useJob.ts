import { useEffect, useState } from 'react';
import { ApiRequestError } from '../api/errors';
import type { ImportsApi } from './api';
import { isFinished, pollDelay, type ImportJob } from './logic';

const RETRY_MS = 2000;

/**
 * Follows one import: asks for it until it finishes (quickly at first, then every second),
 * and again for each page of its rejected rows. `first` (the 202 answer) shows until the
 * first poll answers. A lost connection is retried; an import that is gone or forbidden is not.
 */
export function useJob(imports: ImportsApi, id: string | null, first: ImportJob | null = null) {
  const [state, setState] = useState<{ id: string | null; job: ImportJob | null; error: Error | null }>({ id, job: first, error: null });
  const [page, setPage] = useState({ id, page: 1 });
  const errorsPage = page.id === id ? page.page : 1;

  useEffect(() => {
    if (!id) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    const tick = async () => {
      try {
        const next = await imports.job(id, errorsPage);
        if (stop) return;
        setState({ id, job: next, error: null });
        if (!isFinished(next.status)) timer = setTimeout(() => void tick(), pollDelay(attempt++));
      } catch (e) {
        if (stop) return;
        setState((s) => ({ id, job: s.id === id ? s.job : null, error: e as Error }));
        const status = e instanceof ApiRequestError ? e.status : 0;
        if (status === 0 || status >= 500) timer = setTimeout(() => void tick(), RETRY_MS);
      }
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [imports, id, errorsPage]);

  const mine = state.id === id;
  return {
    job: mine ? state.job ?? first : first,
    error: mine ? state.error : null,
    page: errorsPage,
    setPage: (p: number) => setPage({ id, page: p }),
  };
}
