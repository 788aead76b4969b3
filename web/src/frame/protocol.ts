import { resolveGoTo, validateQuery, type Lang, type Registry, type RouteEntry, type WarehouseGroup } from '../../../engine/src/index';
import type { GoToPayload, InboundMessage, OutboundMessage } from './messages';

/** What the shell knows when a frame message arrives. */
export interface ProtocolContext {
  /** The routes the signed-in user may open (the engine's routesFor). */
  routes: RouteEntry[];
  /** The feature shown in the frame: its frameData flag decides the parentFrameData answer. */
  feature: Pick<RouteEntry, 'frameData'>;
  warehouse: WarehouseGroup | null;
  warehouseList: WarehouseGroup[];
  language: Lang;
  /** Which entities an import deep link may name. */
  registry: Pick<Registry, 'entities'>;
}

/** What the shell does about a message; applied by the frame component, tested here without a browser. */
export type Effect =
  | { kind: 'reply'; message: OutboundMessage }
  | { kind: 'ready' }
  | { kind: 'navigate'; to: string }
  | { kind: 'toast'; toast: 'invalidData' | 'unavailable' }
  | { kind: 'clearWarehouse' }
  | { kind: 'help'; enabled: boolean };

function queryString(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/**
 * SPEC 5 and 7, goTo: an invalid query for the type is an error toast and no navigation;
 * otherwise the engine resolves the type over the user's routes (home is /); no route is a
 * warning toast. A path is appended below the route, the query becomes its query string.
 */
export function goToEffects(p: GoToPayload, routes: RouteEntry[], registry: Pick<Registry, 'entities'>): Effect[] {
  if (!validateQuery(p.type, p.query, registry).valid) return [{ kind: 'toast', toast: 'invalidData' }];
  const target = resolveGoTo(routes, p.type);
  if (!target) return [{ kind: 'toast', toast: 'unavailable' }];
  const sub = p.path ? p.path.replace(/^\/+/, '') : '';
  const base = sub ? `${target.path.replace(/\/+$/, '')}/${sub}` : target.path;
  return [{ kind: 'navigate', to: `${base}${queryString(p.query)}` }];
}

export function effectsOf(msg: InboundMessage, ctx: ProtocolContext): Effect[] {
  switch (msg.type) {
    case 'guestIsReady':
      return ctx.feature.frameData
        ? [{ kind: 'ready' }, { kind: 'reply', message: { type: 'parentFrameData', payload: { warehouse: ctx.warehouse, warehouseList: ctx.warehouseList } } }]
        : [{ kind: 'ready' }];
    case 'requestLanguagePref':
      return [{ kind: 'reply', message: { type: 'languagePref', payload: { language: ctx.language } } }];
    case 'goTo':
      return goToEffects(msg.payload, ctx.routes, ctx.registry);
    case 'clearSelectedWarehouse':
      return [{ kind: 'clearWarehouse' }];
    case 'helpStatus':
      return [{ kind: 'help', enabled: msg.payload.enabled }];
  }
}
