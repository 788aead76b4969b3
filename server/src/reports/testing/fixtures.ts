/**
 * Two small reports for the server's tests, injected into the registry (no report definitions
 * are on main yet): deliveries (every filter type the routes pass on, every column kind) and
 * the alerts of /alerts (its own access key).
 */
import type { LocalText, Registry, ReportDef } from '../../../../engine/src/index';
import type { Store } from '../../store/types';

const text = (en: string, es: string, fr: string): LocalText => ({ en, es, fr });

export const DELIVERY_REPORT: ReportDef = {
  key: 'fixture_deliveries',
  label: text('Deliveries (fixture)', 'Entregas (fixture)', 'Livraisons (fixture)'),
  category: 'product',
  access: 'Reports',
  source: { entity: 'delivery', query: 'searchProductDeliveriesv1', responseField: 'deliveryData' },
  pipeline: [{ $match: { deliveryStatus: { $ne: 'Draft' } } }],
  depositFields: ['deposit', 'receiverDeposit'],
  statusOf: 'delivery',
  filters: [
    { id: 'sendDate', label: text('Send date', 'Fecha de envío', 'Date d\'envoi'), type: 'date_range', field: 'sendDate', on: 'source' },
    { id: 'status', label: text('Status', 'Estado', 'Statut'), type: 'status', field: 'deliveryStatus', on: 'source', workflow: 'delivery' },
    { id: 'batch', label: text('Batch', 'Lote', 'Lot'), type: 'text', field: 'productData.batchId', on: 'source' },
    { id: 'quantity', label: text('Quantity', 'Cantidad', 'Quantité'), type: 'number_range', field: 'totalQuantity', on: 'source' },
    { id: 'comment', label: text('Comment', 'Comentario', 'Commentaire'), type: 'text', field: 'comments', on: 'row' },
  ],
  columns: [
    { id: 'sendDate', label: text('Send date', 'Fecha de envío', 'Date d\'envoi'), type: 'date_text', field: 'sendDate', sortable: true },
    { id: 'shipmentID', label: text('Shipment', 'Envío', 'Expédition'), type: 'conditional_action', field: 'shipmentID', action: { workflow: 'delivery', idField: 'id' }, sortable: true },
    { id: 'products', label: text('Batches', 'Lotes', 'Lots'), type: 'array', field: 'productData', subField: 'batchId', sortable: false },
    { id: 'deliveryStatus', label: text('Status', 'Estado', 'Statut'), type: 'status', field: 'deliveryStatus', workflow: 'delivery', sortable: true },
    { id: 'comments', label: text('Comments', 'Comentarios', 'Commentaires'), type: 'text', field: 'comments', sortable: true },
    { id: 'totalQuantity', label: text('Total quantity', 'Cantidad total', 'Quantité totale'), type: 'number', field: 'totalQuantity', sortable: true },
  ],
  sort: { sendDate: -1 },
  export: { fileName: 'fixture_deliveries', format: 'csv' },
};

export const ALERTS_REPORT: ReportDef = {
  key: 'get_alerts_data',
  label: text('Alerts', 'Alertas', 'Alertes'),
  category: 'other',
  access: 'Alerts',
  source: { entity: 'alert', query: 'getAlerts', responseField: 'alertData' },
  pipeline: [],
  depositFields: ['deposit'],
  filters: [],
  columns: [
    { id: 'title', label: text('Title', 'Título', 'Titre'), type: 'text', field: 'title', sortable: true },
    { id: 'timestamp', label: text('Date', 'Fecha', 'Date'), type: 'date_text', field: 'timestamp', sortable: true },
  ],
  sort: { timestamp: -1 },
  export: { fileName: 'alerts', format: 'csv' },
};

export function withFixtureReports(reg: Registry): Registry {
  return { ...reg, reports: { ...reg.reports, [DELIVERY_REPORT.key]: DELIVERY_REPORT, [ALERTS_REPORT.key]: ALERTS_REPORT } };
}

export interface FixtureDelivery {
  sendDate: string;
  shipmentID: string;
  deposit: string;
  receiverDeposit: string;
  productData: { material: string; batchId: string; amount: number }[];
  deliveryStatus: string;
  comments: string;
  totalQuantity: number;
}

/** `n` deliveries over 2024, spread over `deposits`; every 7th one a Draft (the report leaves drafts out). */
export function fixtureDeliveries(n: number, deposits: string[], comment: (i: number) => string = (i) => `note ${i}`): FixtureDelivery[] {
  const states = ['In-Progress', 'Accepted', 'Partial Reject', 'Total Reject'];
  return Array.from({ length: n }, (_, i) => ({
    sendDate: new Date(Date.UTC(2024, 0, 1) + (i % 360) * 86_400_000 + (i % 24) * 3_600_000).toISOString(),
    shipmentID: `SH-${String(i).padStart(5, '0')}`,
    deposit: deposits[i % deposits.length],
    receiverDeposit: 'dep-customer',
    productData: [{ material: 'mat-1', batchId: `B${i}`, amount: 1 }, ...(i % 2 ? [{ material: 'mat-2', batchId: `C${i}`, amount: 2 }] : [])],
    deliveryStatus: i % 7 === 0 ? 'Draft' : states[i % states.length],
    comments: comment(i),
    totalQuantity: i % 100,
  }));
}

export async function insertDeliveries(store: Store, rows: FixtureDelivery[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await store.insertMany('delivery', rows.slice(i, i + 500) as never);
}
