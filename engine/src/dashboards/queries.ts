import type { LocalText } from '../text';

/** A named query's parameter: what a dashboard filter feeding it must be. */
export type NamedQueryParam = { type: 'reference'; ref: string } | { type: 'date_range' };

/**
 * A server-side query for what a report cannot say (docs/dashboards.md, "Named queries"): the
 * server runs it (server/src/dashboards/queries.ts) narrowed to the selected warehouse group.
 * `figures`: named numbers (a KPI shows one, a chart several); `groups`: values per located
 * record, in series (a chart's categories, a map's points).
 */
export interface NamedQueryDef {
  /** Any one of these keys lets a user run it (a customer-module key as the selected group allows, as for reports). */
  access: readonly string[];
  gives: 'figures' | 'groups';
  /** figures: each figure's label. */
  figures?: Readonly<Record<string, LocalText>>;
  params: Readonly<Record<string, NamedQueryParam>>;
}

const t = (en: string, es: string, fr: string): LocalText => ({ en, es, fr });
const DEPOSIT: NamedQueryParam = { type: 'reference', ref: 'company_division' };
// Who reads stock and the IBC fleet reads these figures: the report, IBC and dashboard keys.
const STOCK_KEYS = ['Reports', 'productTraceability', 'ibcTraceability', 'IBC Inventory'];

export const NAMED_QUERIES: Readonly<Record<string, NamedQueryDef>> = {
  /** The outbox of declarations to the authority (GET /api/v3/sync/status), by the deposit each job was declared at. */
  declarations: {
    access: ['Dashboards', 'Sync Logs', 'Monitoring'],
    gives: 'figures',
    figures: {
      pending: t('Waiting to be sent', 'Esperando envío', 'En attente d\'envoi'),
      dueSoon: t('Due soon', 'Vencen pronto', 'À échéance proche'),
      overdue: t('Past their deadline', 'Vencidas', 'En retard'),
      failed: t('Refused', 'Rechazadas', 'Refusées'),
      synced: t('Accepted', 'Aceptadas', 'Acceptées'),
    },
    params: { deposit: DEPOSIT },
  },
  /** The IBC fleet (not disposed) by where it is, and what is late: held by a customer past lossAfterDays, inspections. */
  ibcFleet: {
    access: STOCK_KEYS,
    gives: 'figures',
    figures: {
      fleet: t('IBCs in the fleet', 'IBC de la flota', 'GRV de la flotte'),
      inStock: t('In stock', 'En stock', 'En stock'),
      inTransit: t('In transit', 'En tránsito', 'En transit'),
      atCustomers: t('At customers', 'En clientes', 'Chez les clients'),
      returnRequested: t('Return requested', 'Devolución solicitada', 'Retour demandé'),
      overdue: t('Overdue at customers', 'Vencidos en clientes', 'En retard chez les clients'),
      inQc: t('Returned, in QC or quarantine', 'Devueltos, en control o cuarentena', 'Retournés, en contrôle ou en quarantaine'),
      pastInspection: t('Past their inspection', 'Con inspección vencida', 'Inspection dépassée'),
    },
    params: { deposit: DEPOSIT },
  },
  /** Stock on hand per deposit and unit (the ledger's balances above 0), placed where the deposit's company is. */
  stockByDeposit: { access: STOCK_KEYS, gives: 'groups', params: { deposit: DEPOSIT } },
  /** IBCs not disposed per deposit they are at and status, placed where the deposit's company is. */
  ibcsByDeposit: { access: STOCK_KEYS, gives: 'groups', params: { deposit: DEPOSIT } },
};

export function namedQuery(name: string): NamedQueryDef | undefined {
  return Object.hasOwn(NAMED_QUERIES, name) ? NAMED_QUERIES[name] : undefined;
}
