import { useEffect, useState } from 'react';
import type { ImportsApi } from './api';
import { isFinished, type ImportJob } from './logic';

const POLL_MS = 500;

/** Follows a job until it finishes (polling its status), and pages through its rejected rows. */
export function useJob(imports: ImportsApi, first: ImportJob | null, page: number) {
  const [job, setJob] = useState<ImportJob | null>(first);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setJob(first);
    setError(null);
  }, [first]);
  const id = first?.id;
  const done = job !== null && isFinished(job.status);
  useEffect(() => {
    if (!id) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const next = await imports.job(id, page);
        if (stop) return;
        setJob(next);
        if (!isFinished(next.status)) timer = setTimeout(() => void tick(), POLL_MS);
      } catch (e) {
        if (!stop) setError((e as Error).message);
      }
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
    // A finished job is fetched again only for another page of its rejected rows.
  }, [imports, id, page, done]);
  return { job, error };
}
