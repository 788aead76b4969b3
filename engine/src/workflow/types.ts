import type { LocalText } from '../text';

/**
 * A workflow definition (schemas/workflows/<name>.json): the state machine of one operation
 * entity. The engine interprets it (plan.ts); the server applies the plan in one transaction.
 *
 * Value references: wherever an effect or template takes a value, a string starting with `$`
 * names a path, anything else is a literal:
 *   `$record.<path>`  the record after the transition's input is merged (e.g. `$record.deposit`)
 *   `$line.<path>`    the current line, in an effect or template that walks lines
 *   `$actor.userId`, `$now`, `$transition.comment`
 * A path is dotted; nothing else (no arithmetic): not an expression language.
 */
export type ValueRef = string | number | boolean | null;

/** Where the product lines of a record are, and which of their fields mean what. */
export interface LinesDef {
  /** The record field holding the lines (an array of objects); `.` means the record itself is one line. */
  field: string;
  material: string;
  batch: string;
  quantity: string;
  unit?: string;
  /**
   * Receptions: the line field holding the rejected quantity, and the one the engine fills with
   * quantity − rejected (refusing a rejected quantity below 0 or above the line's quantity).
   */
  rejected?: string;
  accepted?: string;
}

export interface WorkflowState {
  id: string;
  label: LocalText;
  /** A CSS colour for the state's badge. */
  color: string;
  final?: boolean;
}

/** Effects: the fixed vocabulary the engine knows. A new kind is engine code (plan.ts). */
export type EffectDef =
  /** Stock arrives at `deposit` for each line (`lines` defaults to the workflow's); creates the lot when new. */
  | { type: 'addStock'; deposit: ValueRef; lines?: LinesDef; quantity?: ValueRef; lot?: { elaborationDate?: ValueRef; expirationDate?: ValueRef } }
  /** Stock leaves `deposit` for each line; refused when any balance would go negative. */
  | { type: 'removeStock'; deposit: ValueRef; lines?: LinesDef; quantity?: ValueRef }
  /** Stock leaves `from` and arrives at `to` for each line (quantity defaults to the line's). */
  | { type: 'moveStock'; from: ValueRef; to: ValueRef; lines?: LinesDef; quantity?: ValueRef }
  /** One EPCIS 2.0 event from a template; `$` references resolved, quantityList/inputs/outputs built from lines. */
  | { type: 'emitEvent'; event: EventTemplate }
  /** The record's sync state becomes pending (empty status): the outbox picks it up. */
  | { type: 'setSyncPending' }
  /** An alert record (entity `alert`) with a title and description in every language. */
  | { type: 'raiseAlert'; title: LocalText; description: LocalText; severity?: 'info' | 'warning' | 'error' }
  /** Sets fields of another record: `id` references it, `set` maps dotted paths to values. */
  | { type: 'updateRecord'; entity: string; id: ValueRef; set: Record<string, ValueRef> };

export interface EventTemplate {
  /** ObjectEvent or TransformationEvent. */
  type: 'ObjectEvent' | 'TransformationEvent';
  /** ObjectEvent only. */
  action?: 'ADD' | 'OBSERVE' | 'DELETE';
  /** A CBV bizStep (bare name such as `shipping`, or the full URN). */
  bizStep: string;
  disposition?: string;
  /** Deposit references (ids of company_division), turned into location URIs. */
  readPoint?: ValueRef;
  bizLocation?: ValueRef;
  source?: { type: string; value: ValueRef }[];
  destination?: { type: string; value: ValueRef }[];
  /** ObjectEvent: the lines whose quantities are listed (default: the workflow's lines). */
  lines?: LinesDef;
  /** ObjectEvent: the quantity listed per line (default: the line's quantity), e.g. `$line.accepted`; lines at 0 are left out. */
  quantity?: ValueRef;
  /** TransformationEvent: consumed and produced lines. */
  inputs?: LinesDef;
  outputs?: LinesDef;
  /** Business transaction: type (`desadv`, `inv`, `po`, `prodorder`…) and the record path of its id. */
  bizTransaction?: { type: string; value: ValueRef };
}

export interface TransitionDef {
  id: string;
  label: LocalText;
  from: string[];
  to: string;
  /** The access key the actor needs for this transition. */
  access: string;
  /** Record fields that must be filled (after the input is merged) to take it. */
  requires?: string[];
  /** Fields the transition's input may set (e.g. per-line rejected quantities); nothing else is taken from it. */
  input?: string[];
  /** A MongoDB-style query over the record (after the input is merged), evaluated by mingo. */
  guard?: Record<string, unknown>;
  /** The message shown when the guard fails. */
  guardMessage?: LocalText;
  /** The record field naming the deposit where this transition happens: it must be in the actor's selected warehouse. */
  at?: string;
  /**
   * Line fields set on every line before the effects run, e.g. a total reject sets
   * `{"rejected": "$line.amount"}`, an accept-all `{"rejected": 0}`. `lines` defaults to the workflow's.
   */
  setLines?: { lines?: LinesDef; set: Record<string, ValueRef> };
  /** Whether the comment is asked for. */
  comment?: 'none' | 'optional' | 'required';
  effects?: EffectDef[];
}

/**
 * A field the server sets on every draft it creates or edits (a client never writes it: the
 * entity lists it in serverFields): the value of the first case whose MongoDB-style query
 * (evaluated by mingo) matches the record, else `otherwise`. E.g. a delivery's shipmentType is
 * internal iff its receiverCompanyType is internal (SPEC 6).
 */
export interface DeriveDef {
  field: string;
  cases: { when: Record<string, unknown>; value: ValueLiteral }[];
  otherwise: ValueLiteral;
}

/** A literal value: a derivation sets no references. */
export type ValueLiteral = string | number | boolean | null;

/** A workflow as written, with the parts the registry needs. */
export interface WorkflowDefinition {
  name: string;
  label: LocalText;
  /** The operation entity it governs (kind `operation`). */
  entity: string;
  /** The key to list, read, create and edit drafts. */
  access: string;
  /** The record field holding the state id. */
  stateField: string;
  initial: string;
  states: WorkflowState[];
  transitions: TransitionDef[];
  /** The product lines of a record, used by effects and events unless they name their own. */
  lines?: LinesDef;
  /** The record fields naming deposits (company_division ids): lists are narrowed to the selected warehouse by them. */
  depositFields: string[];
  /** The date field lists filter on and sort by default. */
  dateField: string;
  /** Whether records are declared to the authority (the Senasa Sync column). */
  declarable?: boolean;
  /** Fields derived from the record on create and edit of drafts, in order (sanitised: always a list). */
  derive?: DeriveDef[];
}

/** What a transition does, computed by the engine without I/O; the server applies all of it or none. */
export interface TransitionPlan {
  /** The record as it will be stored (state changed, input merged, history appended). */
  record: Record<string, unknown>;
  /** Signed stock movements, in order; the server refuses the whole plan if a balance goes negative. */
  movements: PlannedMovement[];
  /** Lots to create when absent (material + number). */
  lots: { material: string; number: string; elaborationDate?: string; expirationDate?: string }[];
  events: Record<string, unknown>[];
  alerts: { title: LocalText; description: LocalText; severity: 'info' | 'warning' | 'error' }[];
  updates: { entity: string; id: string; set: Record<string, unknown> }[];
}

export interface PlannedMovement {
  material: string;
  batch: string;
  deposit: string;
  /** Positive in, negative out. */
  quantity: number;
  unit?: string;
}

/** One entry of a record's history. */
export interface HistoryEntry {
  transition: string;
  from: string;
  to: string;
  by: string;
  /** The user's display name when the transition was taken. */
  byName?: string;
  at: string;
  comment?: string;
}
