import type { WidgetData } from '../../../engine/src/index';
import type { ApiClient } from '../api/client';

/** fetchDashboardData, one widget at a time: each paints as soon as its own answer comes. */
export function dashboardsApi(api: ApiClient) {
  return {
    widget: (key: string, widget: string, params: Record<string, string>) => {
      const q = new URLSearchParams(params).toString();
      return api.get<WidgetData & { id: string }>(`/api/v3/dashboards/${encodeURIComponent(key)}/widgets/${encodeURIComponent(widget)}/data${q ? `?${q}` : ''}`, { noCache: true });
    },
    /** A reference filter's records: those whose title holds `q`, or the one `id` names. */
    options: (key: string, filter: string, q: { q?: string; id?: string }) =>
      api.get<{ data: { id: string; title: string }[] }>(`/api/v3/dashboards/${encodeURIComponent(key)}/filters/${encodeURIComponent(filter)}/options?${new URLSearchParams(q as Record<string, string>).toString()}`, { noCache: true }),
  };
}

export type DashboardsApi = ReturnType<typeof dashboardsApi>;
