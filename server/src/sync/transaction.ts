import type { Registry, WorkflowDef } from '../../../engine/src/index';
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
    const material = text(getPath(l, def.material));
    const all = Number(getPath(l, def.quantity));
    const rejected = def.rejected ? Number(getPath(l, def.rejected)) : NaN;
    const quantity = job.kind === 'reject' && job.partial && Number.isFinite(rejected) ? rejected : all;
    if (job.kind === 'reject' && job.partial && !(quantity > 0)) return [];
    return [defined({ gtin: material ? gtins.get(material) : undefined, authorityCode: material, lot: text(getPath(l, def.batch)), quantity })];
  });
}

/**
 * What the authority is sent for a job: the record's operation, parties (GLNs), remito, date and
 * lines. Confirmations and rejections name the sender's declaration by its transaction id.
 */
export async function buildTransaction(reg: Registry, store: Store, job: SyncJob, record: StoredDoc, senderTransactionId?: string): Promise<AuthorityTransaction> {
  const wf = reg.workflows[job.workflow];
  const def = wf.lines;
  const materialIds = def ? [...new Set(linesOf(record, def).map((l) => text(getPath(l, def.material))).filter((v): v is string => !!v))] : [];
  const depositIds = wf.depositFields.map((f) => text(getPath(record, f))).filter((v): v is string => !!v);
  const [materials, deposits] = await Promise.all([
    materialIds.length ? store.find('material', { filter: { id: { $in: materialIds } }, projection: { gtin: 1 } }) : [],
    depositIds.length ? store.find('company_division', { filter: { id: { $in: depositIds } }, projection: { gln: 1 } }) : [],
  ]);
  const gtins = new Map(materials.map((m) => [m.id, text(m.gtin)]));
  const gln = (field: string | undefined) => {
    const id = field ? text(getPath(record, field)) : undefined;
    return text(deposits.find((d) => d.id === id)?.gln);
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
    lines: productLines(wf, record, job, gtins),
    transactionId: senderTransactionId,
    reason, partial: job.kind === 'reject' ? !!job.partial : undefined,
  });
}
