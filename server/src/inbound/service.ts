/**
 * What the authority and other integrations sent us (issue 18, /inbound-messages): one
 * `inbound_message` record a message, shown by the report get_inbound_messages. The message
 * itself is not kept, only a summary of it: a payload may carry people's data the screen has
 * no reason to show.
 */
import type { Store, StoredDoc } from '../store/types';

export const INBOUND = 'inbound_message';
export const INBOUND_ACCESS = 'Inbound Messages';
export const INBOUND_STATUSES = ['received', 'processed', 'failed'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

export const LIMITS = { source: 100, kind: 100, reference: 200, summary: 2000, error: 500 } as const;

export interface InboundMessage {
  /** Who sent it: `authority`, an integration's name. */
  source: string;
  /** What it is: `confirmation`, `rejection`, `alert`, `query-answer`… */
  kind: string;
  /** What it is about: a transaction id, a remito number, a record's key. */
  reference?: string;
  /** What it says, in a line or two; made from `payload` when not given. */
  summary?: string;
  payload?: unknown;
  status?: InboundStatus;
  error?: string;
  /** When it arrived (ISO); now when not given. */
  at?: string;
}

const cut = (s: string | undefined, n: number) => (s === undefined ? undefined : s.slice(0, n));

function summaryOf(msg: InboundMessage): string {
  if (msg.summary !== undefined) return msg.summary.slice(0, LIMITS.summary);
  if (msg.payload === undefined) return '';
  const text = typeof msg.payload === 'string' ? msg.payload : JSON.stringify(msg.payload);
  return text.length > LIMITS.summary ? `${text.slice(0, LIMITS.summary - 1)}…` : text;
}

/** Records one message; the capabilities that receive messages call this. */
export async function recordInbound(store: Store, msg: InboundMessage, now: () => Date = () => new Date()): Promise<StoredDoc> {
  const stamp = now().toISOString();
  const at = msg.at !== undefined && !Number.isNaN(Date.parse(msg.at)) ? new Date(msg.at).toISOString() : stamp;
  return store.insert(INBOUND, {
    at, source: msg.source.slice(0, LIMITS.source), kind: msg.kind.slice(0, LIMITS.kind),
    ...(msg.reference !== undefined ? { reference: cut(msg.reference, LIMITS.reference)! } : {}),
    summary: summaryOf(msg), status: msg.status ?? 'received',
    ...(msg.error !== undefined ? { error: cut(msg.error, LIMITS.error)! } : {}),
    createdAt: stamp, createdBy: 'system', state: 1,
  });
}
