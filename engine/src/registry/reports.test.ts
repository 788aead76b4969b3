import { describe, expect, it } from 'vitest';
import { REPORT_FILES, reportRegistry, reportSources, SHIPMENTS_REPORT, STOCK_REPORT, TOP_BATCHES_REPORT } from '../testing/reportFixtures';
import { loadRegistry } from './load';
import { formatProblem } from './problems';

/** A definition broken on purpose: reached into freely, as JSON. */
type Json = Record<string, any>;
const FILE = 'reports/shipments_report.json';

/** The problems once `change` has broken a copy of `report` (the shipments report by default). */
function broken(change: (r: Json) => void, report: Json = SHIPMENTS_REPORT, file = FILE, over: Record<string, unknown> = {}): string[] {
  const r = structuredClone(report) as Json;
  change(r);
  return loadRegistry(reportSources({ [file]: r, ...over })).problems.map(formatProblem);
}
const at = (pointer: string, message: string, file = FILE) => `${file}:${pointer}: ${message}`;
const rowsMiss = (path: string) => `field "${path}" is not in the report's rows (the output of its pipeline)`;

describe('report definitions: sanitised once', () => {
  it('applies every default: access, pipeline, the source workflow\'s deposits and states, columns, filters, sort', () => {
    const reg = reportRegistry();
    const r = reg.reports.shipments_report;
    expect(r.access).toBe('Reports');
    expect(r.depositFields).toEqual(['deposit', 'receiverDeposit']);
    expect(r.statusOf).toBe('shipment');
    expect(r.ownerField).toBeUndefined();
    expect(r.columns.map((c) => [c.id, c.field, c.sortable])).toEqual([
      ['sendDate', 'sendDate', true], ['shipmentID', 'shipmentID', true], ['products', 'lines', false], ['status', 'status', true], ['receiver', 'receiver', false],
    ]);
    expect(r.columns.find((c) => c.type === 'status')!.workflow).toBe('shipment');
    expect(r.filters.map((f) => f.on)).toEqual(['source', 'source', 'source', 'source', 'source', 'source', 'source', 'row']);
    expect(r.filters.find((f) => f.type === 'status')!.workflow).toBe('shipment');
    expect(r.sort).toEqual({ sendDate: -1 });
    // A sort given is kept; deposits default to the source workflow's.
    expect(reg.reports.top_batches.sort).toEqual({ total: -1, batch: 1 });
    expect(reg.reports.top_batches.depositFields).toEqual(['deposit', 'receiverDeposit']);
    expect(reg.reports.shipment_lines.pipeline).toHaveLength(2);
    expect(Object.isFrozen(r.columns)).toBe(true);
  });

  it('a report without a date column sorts on its first column; one with no pipeline has none', () => {
    const reg = loadRegistry(reportSources({ 'reports/top_batches.json': { ...TOP_BATCHES_REPORT, sort: undefined, pipeline: undefined, columns: [{ id: 'shipmentID', label: SHIPMENTS_REPORT.label, type: 'text' }] } })).registry!;
    expect(reg.reports.top_batches.sort).toEqual({ shipmentID: 1 });
    expect(reg.reports.top_batches.pipeline).toEqual([]);
  });

  it('replaces {host} in the key and the file name by the deployment\'s name, and keys the report by it', () => {
    const reg = reportRegistry();
    expect(reg.reports['stock_{host}']).toBeUndefined();
    expect(reg.reports.stock_test.key).toBe('stock_test');
    expect(reg.reports.stock_test.export.fileName).toBe('stock_test');
    expect(reg.reports.stock_test.depositFields).toEqual(['deposit']);
    expect(reg.reports.stock_test.statusOf).toBeUndefined();
  });
});

describe('report definitions: cross-references, each with file and JSON pointer', () => {
  it('accepts the fixtures', () => {
    expect(loadRegistry(reportSources()).problems).toEqual([]);
  });

  it('the key equals the file name, {host} kept in the file name', () => {
    expect(broken((r) => { r.key = 'shipment_report'; })).toEqual([at('/key', 'key "shipment_report" must equal the file name "shipments_report"')]);
    expect(broken((r) => { r.key = 'stock_test'; }, STOCK_REPORT, 'reports/stock_{host}.json')).toEqual([
      at('/key', 'key "stock_test" must equal the file name "stock_{host}"', 'reports/stock_{host}.json'),
    ]);
  });

  it('the source is an entity or a ledger collection, the access key and workflows exist', () => {
    expect(broken((r) => { r.source.entity = 'shipments'; })).toEqual([
      at('/source/entity', '"shipments" is neither an entity nor a collection reports read (stock_balance, stock_movement)'),
    ]);
    expect(broken((r) => {
      r.access = 'Reportz';
      r.statusOf = 'shipping';
      r.columns[3].workflow = 'shipmnt';
      r.columns[1].action.workflow = 'ibc';
      r.filters[1].workflow = 'batch';
    })).toEqual([
      at('/access', 'access key "Reportz" is not declared in schemas/access.json'),
      at('/statusOf', 'workflow "shipping" does not exist'),
      at('/filters/1/workflow', 'workflow "batch" does not exist'),
      at('/columns/1/action/workflow', 'workflow "ibc" does not exist'),
      at('/columns/3/workflow', 'workflow "shipmnt" does not exist'),
    ]);
  });

  it('a status column or filter over a source without a workflow names one', () => {
    expect(broken((r) => { r.columns.push({ id: 'state', field: 'batch', label: r.columns[0].label, type: 'status' }); r.filters = [{ id: 's', label: r.columns[0].label, type: 'status', field: 'batch' }]; }, STOCK_REPORT, 'reports/stock_{host}.json')).toEqual([
      at('/filters/0/workflow', 'a status filter needs a workflow: stock_balance has none, name one here or in statusOf', 'reports/stock_{host}.json'),
      at('/columns/3/workflow', 'a status column needs a workflow: stock_balance has none, name one here or in statusOf', 'reports/stock_{host}.json'),
    ]);
  });

  it('source filters, deposit fields and the owner field are paths of the source', () => {
    expect(broken((r) => {
      r.filters[0].field = 'sentOn';
      r.filters[3].field = 'lines.batchId';
      r.depositFields = ['deposit', 'receiver'];
      r.ownerField = 'company';
    })).toEqual([
      at('/depositFields/1', 'field "receiver" does not exist in shipment'),
      at('/ownerField', 'field "company" does not exist in shipment'),
      at('/filters/0/field', 'field "sentOn" does not exist in shipment'),
      at('/filters/3/field', 'field "lines.batchId" does not exist in shipment'),
    ]);
    // A row path is not a source path: the receiver is looked up by the pipeline.
    expect(broken((r) => { r.filters[7].on = 'source'; })).toEqual([at('/filters/7/field', 'field "receiver.division_name" does not exist in shipment')]);
  });

  it('a reference filter names an entity, a select filter its options', () => {
    expect(broken((r) => { r.filters[2].ref = 'division'; delete r.filters[5].options; })).toEqual([
      at('/filters/2/ref', 'entity "division" does not exist'),
      at('/filters/5/options', 'a select filter lists its options'),
    ]);
  });

  it('columns, row filters, de-duplication keys and sort keys are paths of the rows the pipeline makes', () => {
    expect(broken((r) => {
      r.columns[0].id = 'sentDate';
      r.columns[2].field = 'line';
      r.columns[2].subField = undefined;
      r.columns[4].subField = 'name';
      r.columns[1].action.idField = '_id';
      r.filters[7].field = 'recv.division_name';
      r.dedupeBy = ['id', 'shipment'];
      r.sort = { sendDate: -1, 'receiver.gln': 1, 'receiver.glm': 1 };
    })).toEqual([
      at('/filters/7/field', rowsMiss('recv.division_name')),
      at('/columns/0/id', rowsMiss('sentDate')),
      at('/columns/1/action/idField', rowsMiss('_id')),
      at('/columns/2/field', rowsMiss('line')),
      at('/columns/4/subField', 'field "name" is not in receiver'),
      at('/dedupeBy/1', rowsMiss('shipment')),
      at('/sort/receiver.glm', rowsMiss('receiver.glm')),
    ]);
    expect(broken((r) => { r.columns[2].subField = 'batchId'; r.columns.push({ ...r.columns[0] }); })).toEqual([
      at('/columns/2/subField', 'field "batchId" is not in lines'),
      at('/columns/5/id', 'column "sendDate" is declared twice'),
    ]);
  });

  it('follows the rows through $group, $project, $unset, $unwind and $lookup', () => {
    const TOP = 'reports/top_batches.json';
    // $group keeps only its _id and accumulators: a source field is gone.
    expect(broken((r) => { r.columns.push({ id: 'sendDate', label: r.label, type: 'date_text' }); }, TOP_BATCHES_REPORT, TOP)).toEqual([at('/columns/4/id', rowsMiss('sendDate'), TOP)]);
    // The looked-up document under $lookup's `as`, then projected away.
    expect(broken((r) => { r.columns.push({ id: 'm', label: r.label, type: 'text', field: 'm.name' }); }, STOCK_REPORT, 'reports/stock_{host}.json')).toEqual([
      at('/columns/3/field', rowsMiss('m.name'), 'reports/stock_{host}.json'),
    ]);
    expect(broken((r) => { r.pipeline[2] = { $unset: ['recv', 'receiver'] }; })).toEqual([
      at('/filters/7/field', rowsMiss('receiver.division_name')),
      at('/columns/4/id', rowsMiss('receiver')),
    ]);
    // An inclusion $project keeps what it names only.
    expect(broken((r) => { r.pipeline.push({ $project: { sendDate: 1, shipmentID: 1, lines: 1, status: 1, receiver: 1 } }); })).toEqual([
      at('/columns/1/action/idField', rowsMiss('id')),
      at('/dedupeBy/0', rowsMiss('id')),
    ]);
  });

  it('reports what a stage reads that is not there, and a $lookup of an unknown collection', () => {
    expect(broken((r) => {
      r.pipeline[0].$lookup.from = 'division';
      r.pipeline[0].$lookup.localField = 'receiver';
      r.pipeline.push({ $unwind: '$line' }, { $addFields: { total: '$lines.amont' } });
    })).toEqual([
      at('/pipeline/0/$lookup/from', 'collection "division" is neither an entity nor a collection reports read'),
      at('/pipeline/0/$lookup/localField', 'field "receiver" does not exist at this stage'),
      at('/pipeline/3/$unwind', 'field "line" does not exist at this stage'),
      at('/pipeline/4/$addFields/total', 'field "lines.amont" does not exist at this stage'),
    ]);
  });

  it('stays permissive where a stage makes the rows\' shape unknowable, and only there', () => {
    // A root computed by an operator: any column is accepted.
    expect(broken((r) => { r.pipeline = [{ $replaceRoot: { newRoot: { $cond: [true, '$$ROOT', {}] } } }]; r.columns[0].id = 'anything'; })).toEqual([]);
    // A root that is a known document is checked.
    expect(broken((r) => { r.pipeline.push({ $replaceRoot: { newRoot: '$receiver' } }); r.columns = [{ id: 'division_name', label: r.label, type: 'text' }, { id: 'gln', label: r.label, type: 'text' }, { id: 'glm', label: r.label, type: 'text' }]; r.filters = []; r.dedupeBy = undefined; })).toEqual([
      at('/columns/2/id', rowsMiss('glm')),
    ]);
  });

  it('ledger collections have their fields: a column naming another fails', () => {
    const STOCK = 'reports/stock_{host}.json';
    expect(broken((r) => { r.columns[1].id = 'batchId'; r.depositFields = ['depot']; }, STOCK_REPORT, STOCK)).toEqual([
      at('/depositFields/0', 'field "depot" does not exist in stock_balance', STOCK),
      at('/columns/1/id', rowsMiss('batchId'), STOCK),
    ]);
  });

  it('a summary is a collection reports read, answering source filters it holds, and gives every path the report\'s rows are read by', () => {
    const STOCK = 'reports/stock_{host}.json';
    const summary = {
      entity: 'stock_batch', filters: [],
      pipeline: [
        { $lookup: { from: 'material', localField: 'material', foreignField: 'id', as: 'm' } },
        { $addFields: { materialName: { $arrayElemAt: ['$m.name', 0] } } },
        { $project: { m: 0 } },
      ],
    };
    expect(broken((r) => { r.summary = summary; }, STOCK_REPORT, STOCK)).toEqual([]);
    const withFilters = (r: Json) => { r.filters = [{ id: 'batch', label: t, type: 'text', field: 'batch' }, { id: 'lot', label: t, type: 'text', field: 'lastOp' }]; };
    const t = { en: 'Batch', es: 'Lote', fr: 'Lot' };
    expect(broken((r) => { withFilters(r); r.summary = { ...summary, filters: ['batch', 'lot', 'nope'] }; }, STOCK_REPORT, STOCK)).toEqual([
      at('/summary/filters/1', 'field "lastOp" does not exist in stock_batch', STOCK),
      at('/summary/filters/2', '"nope" is not a source filter of the report', STOCK),
    ]);
    expect(broken((r) => { r.summary = { ...summary, entity: 'stock_lots' }; }, STOCK_REPORT, STOCK)).toEqual([
      at('/summary/entity', '"stock_lots" is neither an entity nor a collection reports read', STOCK),
    ]);
    expect(broken((r) => { r.summary = { ...summary, pipeline: [{ $project: { batch: 1, quantity: 1 } }] }; }, STOCK_REPORT, STOCK)).toEqual([
      at('/columns/0', 'field "materialName" is not in the rows of the report\'s summary (the output of summary.pipeline)', STOCK),
    ]);
  });

  it('a feature drawn from a report names one that exists ({host} replaced or not)', () => {
    const src = Object.fromEntries(reportSources().map((s) => [s.path, JSON.parse(s.text)]));
    const features = src['schemas/features.json'];
    const i = features.features.length - 1;
    features.features[i].report.key = 'shipment_report';
    expect(loadRegistry(reportSources({ 'schemas/features.json': features })).problems.map(formatProblem)).toEqual([
      `schemas/features.json:/features/${i}/report/key: report "shipment_report" does not exist in reports/`,
    ]);
    features.features[i].report.key = 'stock_test';
    expect(loadRegistry(reportSources({ 'schemas/features.json': features })).problems).toEqual([]);
    expect(Object.keys(REPORT_FILES)).toHaveLength(4);
  });
});
