import { useEffect, useState } from 'react';
import type { WidgetData } from '../../../engine/src/index';
import { ApiRequestError } from '../api/errors';
import type { DashboardsApi } from './api';
import { takePrefetched } from './prefetch';

/** A widget's data as it loads: loading (a skeleton shows), its data, refused (403: not this user's), or failed. */
export type WidgetState =
  | { status: 'loading' }
  | { status: 'ready'; data: WidgetData }
  | { status: 'forbidden'; error: unknown }
  | { status: 'failed'; error: unknown };

/**
 * Loads one widget's data, again whenever the filters or the selected warehouse group change
 * (`reload` is the query and group in one string); an answer to an older request is dropped.
 * The first load takes the answer the frame asked for early (prefetch.ts) when it matches.
 */
export function useWidgetData(api: DashboardsApi, key: string, widget: string, params: Record<string, string>, reload: string): WidgetState {
  const [state, setState] = useState<WidgetState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    (takePrefetched(key, widget, reload) ?? api.widget(key, widget, params)).then(
      (data) => { if (live) setState({ status: 'ready', data }); },
      (error: unknown) => { if (live) setState({ status: error instanceof ApiRequestError && error.status === 403 ? 'forbidden' : 'failed', error }); },
    );
    return () => { live = false; };
    // `reload` stands for params and the group: the object identity of params changes on every render.
  }, [api, key, widget, reload]); // eslint-disable-line react-hooks/exhaustive-deps
  return state;
}
