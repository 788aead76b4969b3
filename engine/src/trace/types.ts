/**
 * What the trace routes answer with (`/api/v3/trace…`): the server builds these shapes and the
 * web's trace screens read them, so they are written once, here. Pure types; how a trace is
 * walked and assembled stays in the server (server/src/trace).
 */

export type Direction = 'backward' | 'forward' | 'both';

/** A place on the map (named apart from the dashboards' `Place`, which carries a label). */
export interface TraceLocation {
  lat: number;
  lng: number;
}

/**
 * What an operation is to a trace, read from its workflow's definition (so a workflow added as
 * JSON is placed without code): the events its transitions emit, directly or through the
 * records they transition (an IBC delivery ships each IBC), and its stock effects.
 */
export type OperationCategory = 'import' | 'transformation' | 'shipment' | 'scrap' | 'consumption' | 'container' | 'operation';

export type NodeKind = 'lot' | 'operation' | 'deposit' | 'ibc';

export interface TraceNode {
  id: string;
  kind: NodeKind;
  label: string;
  start?: boolean;
  /** Lot: material id and name, GTIN, number, dates. */
  material?: string;
  materialName?: string;
  gtin?: string;
  lot?: string;
  elaborationDate?: string;
  expirationDate?: string;
  /** Operation: workflow, its label, record id, category, document number, date, state. */
  workflow?: string;
  workflowLabel?: string;
  record?: string;
  category?: OperationCategory;
  document?: string;
  date?: string;
  state?: string;
  /** Import: the supplier and origin country; export: the customer and destination. */
  companies?: { id: string; name: string; role: string }[];
  countries?: { id: string; name: string; role: string }[];
  /** Deposit: its company. */
  company?: string;
  companyName?: string;
  /** IBC: its serial number. */
  serial?: string;
  /** The deposit where it is or happened, and that place's coordinates when known. */
  deposit?: string;
  location?: TraceLocation;
  /** Links from this node that continue where the caller may not see. */
  beyond?: number;
}

/** consumed: a lot into an operation; produced: an operation's new lot; arrived: a lot moved to a deposit; filled / carried: an IBC's content. */
export type EdgeKind = 'consumed' | 'produced' | 'arrived' | 'filled' | 'carried';

/** A link of the walk; its unit is the ledger's (an id, or none) until the answer names it (`TraceAnswer['edges']`). */
export interface TraceEdge {
  id: string;
  from: string;
  to: string;
  kind: EdgeKind;
  material: string;
  lot: string;
  quantity: number;
  unit?: string;
  /** Where it happened: the deposit the stock left (consumed) or reached. */
  deposit: string;
  at: string;
  operation: { workflow: string; id: string; transition: string };
}

export interface TracePlace {
  id: string;
  kind: 'deposit' | 'company';
  label: string;
  location: TraceLocation;
  nodes: string[];
}

export interface TraceFlow {
  from: string;
  to: string;
  material: string;
  lot: string;
  quantity: number;
  unit: string;
  operation: string;
}

export interface TraceAnswer {
  start: { kind: 'lot' | 'ibc' | 'shipment'; nodes: string[]; identifier: string };
  direction: Direction;
  nodes: TraceNode[];
  edges: (Omit<TraceEdge, 'unit'> & { unit: string })[];
  places: TracePlace[];
  flows: TraceFlow[];
  summary: {
    lots: number; operations: number; shipments: number; ibcs: number; deposits: number; events: number;
    customers: { id: string; name: string }[]; suppliers: { id: string; name: string }[]; countries: { id: string; name: string }[];
  };
  boundary: { links: number; nodes: number; warehouse: string | null };
  limits: { maxDepth: number; depth: number; truncated: 'depth' | 'size' | null };
}

/**
 * One row of a trace's events: an event and one lot it names (an event naming three lots is
 * three rows, each whole, so any column sorts), with the key data elements of a recall
 * spreadsheet — what, lot, quantity, unit, where from, where to, when, reference document.
 */
export interface TraceRow {
  event: string;
  type: string;
  time: string;
  date: string;
  bizStep: string;
  disposition: string;
  role: string;
  material: string;
  gtin: string;
  lot: string;
  ibc: string;
  quantity: number | null;
  unit: string;
  from: string;
  to: string;
  document: string;
  operation: string;
  transition: string;
  workflow: string;
  record: string;
}

/** A thing to trace, found by typing: the parameters that trace it. */
export interface SearchHit {
  kind: 'lot' | 'ibc' | 'shipment';
  label: string;
  detail: string;
  lot?: string;
  material?: string;
  ibc?: string;
  shipment?: string;
}

/** One step of a lot's history: an operation's movements of it at one deposit. */
export interface HistoryStep {
  at: string;
  date: string;
  workflow: string;
  operation: string;
  record: string;
  document: string;
  transition: string;
  deposit: string;
  depositName: string;
  quantity: number;
  unit: string;
  /** The lot's stock across the deposits shown, after the step. */
  balance: number;
}

/** A lot's story in time order, from the ledger: where it was made, moved, used; deposits beyond the caller's access counted, not shown. */
export interface LotHistory {
  lot: { material: string; materialName: string; gtin?: string; lot: string; elaborationDate?: string; expirationDate?: string };
  steps: HistoryStep[];
  /** Deposits the lot was at that the caller may not see. */
  beyond: number;
  warehouse: string | null;
}
