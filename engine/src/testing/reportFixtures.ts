import { loadRegistry, type DefinitionSource } from '../registry/load';
import type { Registry } from '../registry/registry';
import { fixtureSources } from './fixtures';
import { workflowSources } from './workflowFixtures';

const t = (en: string) => ({ en, es: `${en} (es)`, fr: `${en} (fr)` });

/**
 * Shipments with their receiver's name looked up: one row per shipment, every declared filter
 * type, every column type. The default sort is left to the sanitiser (the first date column).
 */
export const SHIPMENTS_REPORT = {
  key: 'shipments_report', label: t('Shipments'), category: 'product',
  source: { entity: 'shipment', query: 'searchShipments', responseField: 'shipmentData' },
  pipeline: [
    { $lookup: { from: 'company_division', localField: 'receiverDeposit', foreignField: 'id', as: 'recv' } },
    { $addFields: { receiver: { $first: '$recv' } } },
    { $unset: 'recv' },
  ],
  filters: [
    { id: 'sendDate', label: t('Send date'), type: 'date_range', field: 'sendDate' },
    { id: 'status', label: t('Status'), type: 'status', field: 'status' },
    { id: 'deposit', label: t('Deposit'), type: 'reference', field: 'deposit', ref: 'company_division' },
    { id: 'batch', label: t('Batch'), type: 'text', field: 'lines.batch' },
    { id: 'amount', label: t('Amount'), type: 'number_range', field: 'lines.amount' },
    { id: 'uom', label: t('Unit'), type: 'select', field: 'lines.uom', options: [{ value: 'kg', label: t('kg') }, { value: 'l', label: t('l') }] },
    { id: 'urgent', label: t('Urgent'), type: 'boolean', field: 'urgent' },
    { id: 'receiver', label: t('Receiver'), type: 'text', field: 'receiver.division_name', on: 'row' },
  ],
  columns: [
    { id: 'sendDate', label: t('Send date'), type: 'date_text' },
    { id: 'shipmentID', label: t('Remito'), type: 'conditional_action', action: { workflow: 'shipment', idField: 'id' } },
    { id: 'products', label: t('Products'), type: 'array', field: 'lines', subField: 'batch' },
    { id: 'status', label: t('Status'), type: 'status' },
    { id: 'receiver', label: t('Receiver'), type: 'object', subField: 'division_name' },
  ],
  dedupeBy: ['id'],
  export: { fileName: 'shipments_report', format: 'csv' },
};

/** Every shipped line, one row each ($unwind): the sort may go first, the page may not. */
export const SHIPMENT_LINES_REPORT = {
  key: 'shipment_lines', label: t('Shipped lines'), category: 'product',
  source: { entity: 'shipment', query: 'searchShipmentLines', responseField: 'lineData' },
  pipeline: [{ $match: { status: { $ne: 'Draft' } } }, { $unwind: '$lines' }],
  filters: [{ id: 'batch', label: t('Batch'), type: 'text', field: 'lines.batch', on: 'row' }],
  columns: [
    { id: 'shipmentID', label: t('Remito'), type: 'text' },
    { id: 'sendDate', label: t('Send date'), type: 'date_text' },
    { id: 'batch', label: t('Batch'), type: 'text', field: 'lines.batch' },
    { id: 'amount', label: t('Amount'), type: 'number', field: 'lines.amount' },
  ],
  sort: { shipmentID: 1 },
  export: { fileName: 'shipment_lines', format: 'csv' },
};

/** The stock of the deployment's deposits, one row per batch (de-duplicated): a ledger collection as source. */
export const STOCK_REPORT = {
  key: 'stock_{host}', label: t('Stock'), category: 'bulk',
  source: { entity: 'stock_balance', query: 'getStocksOfMaterial', responseField: 'stockData' },
  depositFields: ['deposit'],
  pipeline: [
    { $lookup: { from: 'material', localField: 'material', foreignField: 'id', as: 'm' } },
    { $addFields: { materialName: { $arrayElemAt: ['$m.name', 0] } } },
    { $project: { m: 0 } },
  ],
  columns: [
    { id: 'materialName', label: t('Material'), type: 'text' },
    { id: 'batch', label: t('Batch'), type: 'text' },
    { id: 'quantity', label: t('Quantity'), type: 'number' },
  ],
  dedupeBy: ['batch'],
  sort: { quantity: -1 },
  export: { fileName: 'stock_{host}', format: 'csv' },
};

/** The three batches shipped most: a $group, a computed sort key and a limit. */
export const TOP_BATCHES_REPORT = {
  key: 'top_batches', label: t('Top batches'), category: 'other',
  source: { entity: 'shipment', query: 'topBatches', responseField: 'data' },
  pipeline: [
    { $unwind: '$lines' },
    { $group: { _id: '$lines.batch', total: { $sum: '$lines.amount' }, shipments: { $addToSet: '$shipmentID' }, last: { $max: '$sendDate' } } },
    { $addFields: { batch: '$_id' } },
  ],
  filters: [{ id: 'sendDate', label: t('Send date'), type: 'date_range', field: 'sendDate' }],
  columns: [
    { id: 'batch', label: t('Batch'), type: 'text' },
    { id: 'total', label: t('Total'), type: 'number' },
    { id: 'shipments', label: t('Shipments'), type: 'array' },
    { id: 'last', label: t('Last shipped'), type: 'date_text' },
  ],
  sort: { total: -1, batch: 1 },
  limit: 3,
  export: { fileName: 'top_batches', format: 'csv' },
};

export const REPORT_FILES: Record<string, unknown> = {
  'reports/shipments_report.json': SHIPMENTS_REPORT,
  'reports/shipment_lines.json': SHIPMENT_LINES_REPORT,
  'reports/stock_{host}.json': STOCK_REPORT,
  'reports/top_batches.json': TOP_BATCHES_REPORT,
};

/** The workflow fixtures plus the reports above, a feature drawing one, and the reports' access key. */
export function reportSources(over: Partial<Record<string, unknown>> = {}): DefinitionSource[] {
  const base = Object.fromEntries(workflowSources().map((s) => [s.path, JSON.parse(s.text)]));
  base['schemas/entities/shipment.json'].fields.push({ id: 'urgent', label: t('Urgent'), type: 'boolean' });
  const features = base['schemas/features.json'];
  features.features.push({ id: 'shipmentsReport', path: '/shipments-report', name: t('Shipments report'), access: 'Reports', render: 'external', report: { view: 'single', key: 'shipments_report' } });
  return fixtureSources({ ...base, ...REPORT_FILES, ...over });
}

export function reportRegistry(): Registry {
  const { registry, problems } = loadRegistry(reportSources());
  if (!registry) throw new Error(problems.map((p) => `${p.file}:${p.pointer}: ${p.message}`).join('\n'));
  return registry;
}
