import { lineValue, type Registry, type WorkflowDef } from '../../../engine/src/index';
import { getPath } from '../store/docs';
import type { Store, StoredDoc } from '../store/types';
import { linesOf } from '../workflows/lines';
import type { AuthorityLine, AuthorityTransaction } from './authority/types';
import type { SyncJob } from './collections';

type Rec = Record<string, unknown>;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : undefined);
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** An ISO date-time from a record's date (a bare day is that day's midnight UTC). */
function isoOf(v: unknown, fallback: string): string {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/**
 * A line's value for one of its workflow's line roles: a path in the line, or `$record.<path>`
 * (a batch preparation fills every container from the record's one source lot).
 */
const roleOf = (record: Rec, line: Rec) => (path: string | undefined): unknown =>
  (path === undefined ? undefined : lineValue(path, { record, line, userId: '', now: '' }));

/** The product lines as the authority counts them: a rejection sends the quantities refused. */
function productLines(wf: WorkflowDef, record: Rec, job: SyncJob, gtins: Map<string, string | undefined>): AuthorityLine[] {
  if (!wf.lines) {
    // IBC moves carry containers, each traced by its serial number.
    const containers = Array.isArray(record.containers) ? (record.containers as Rec[]) : [];
    return containers.flatMap((c) => {
      const serial = text(c.ibcNumber) ?? text(c.ibc);
      return serial ? [defined({ serial, quantity: 1, authorityCode: text(c.ibc) })] : [];
    });
  }
  const def = wf.lines;
  return linesOf(record, def).flatMap((l) => {
    const role = roleOf(record, l);
    const material = text(role(def.material));
    const all = Number(role(def.quantity));
    const rejected = def.rejected ? Number(role(def.rejected)) : NaN;
    const quantity = job.kind === 'reject' && job.partial && Number.isFinite(rejected) ? rejected : all;
    if (job.kind === 'reject' && job.partial && !(quantity > 0)) return [];
    return [defined({ gtin: material ? gtins.get(material) : undefined, authorityCode: material, lot: text(role(def.batch)), quantity })];
  });
}

/** What a pass's transactions are built from, read once for all its jobs: the records, and the GTINs and GLNs they name. */
export interface PassData {
  records: Map<string, StoredDoc>;
  gtins: Map<string, string | undefined>;
  glns: Map<string, string | undefined>;
}

const recordKey = (entity: string, id: string) => `${entity}:${id}`;

export function recordOf(data: PassData, job: SyncJob): StoredDoc | undefined {
  return data.records.get(recordKey(job.entity, job.recordId));
}

async function byIds(store: Store, coll: string, ids: Set<string>, field: string): Promise<Map<string, string | undefined>> {
  const docs = ids.size ? await store.find(coll, { filter: { id: { $in: [...ids] } }, projection: { [field]: 1 } }) : [];
  return new Map(docs.map((d) => [d.id, text(d[field])]));
}

export async function readPass(reg: Registry, store: Store, jobs: SyncJob[]): Promise<PassData> {
  const records = new Map<string, StoredDoc>();
  for (const entity of new Set(jobs.map((j) => j.entity))) {
    const ids = [...new Set(jobs.filter((j) => j.entity === entity).map((j) => j.recordId))];
    for (const r of await store.find(entity, { filter: { id: { $in: ids } } })) records.set(recordKey(entity, r.id), r);
  }
  const materials = new Set<string>();
  const deposits = new Set<string>();
  for (const job of jobs) {
    const wf = reg.workflows[job.workflow];
    const record = records.get(recordKey(job.entity, job.recordId));
    if (!record) continue;
    const def = wf.lines;
    if (def) for (const l of linesOf(record, def)) { const m = text(roleOf(record, l)(def.material)); if (m) materials.add(m); }
    for (const f of wf.depositFields) { const d = text(getPath(record, f)); if (d) deposits.add(d); }
  }
  const [gtins, glns] = await Promise.all([byIds(store, 'material', materials, 'gtin'), byIds(store, 'company_division', deposits, 'gln')]);
  return { records, gtins, glns };
}

/**
 * What the authority is sent for a job: the record's operation, parties (GLNs), remito, date and
 * lines. Confirmations and rejections name the sender's declaration by its transaction id.
 */
export function buildTransaction(reg: Registry, job: SyncJob, record: StoredDoc, data: PassData, senderTransactionId?: string): AuthorityTransaction {
  const wf = reg.workflows[job.workflow];
  const gln = (field: string | undefined) => {
    const id = field ? text(getPath(record, field)) : undefined;
    return id ? data.glns.get(id) : undefined;
  };
  // Why: the comment the receiver gave with the rejection (the last step of the record's history).
  const history = Array.isArray(record.history) ? (record.history as Rec[]) : [];
  const said = text(history.at(-1)?.comment) ?? text(record.comments);
  const reason = job.kind === 'reject' ? said ?? (job.partial ? 'rejected in part by the receiver' : 'rejected in full by the receiver') : undefined;
  return defined({
    key: job.key, kind: job.kind, operation: job.workflow, recordId: job.recordId,
    originGln: gln(wf.depositFields[0]), destinationGln: gln(wf.depositFields[1]),
    remito: text(record.shipmentID),
    eventDate: isoOf(getPath(record, wf.dateField), job.declaredAt),
    lines: productLines(wf, record, job, data.gtins),
    transactionId: senderTransactionId,
    reason, partial: job.kind === 'reject' ? !!job.partial : undefined,
  });
}
