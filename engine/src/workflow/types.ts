import type { LocalText } from '../text';

/**
 * A workflow definition (schemas/workflows/<name>.json): the state machine of one operation
 * entity. The engine interprets it (plan.ts); the server applies the plan in one transaction.
 *
 * Value references: wherever an effect or template takes a value, a string starting with `$`
 * names a path, anything else is a literal:
 *   `$record.<path>`  the record after the transition's input is merged (e.g. `$record.deposit`)
 *   `$line.<path>`    the current line, in an effect or template that walks lines
 *   `$before.<path>`  the record as it was before the transition (the deposit an IBC leaves)
 *   `$actor.userId`, `$now`, `$transition.comment`
 * A path is dotted; nothing else (no arithmetic): not an expression language.
 */
export type ValueRef = string | number | boolean | null;

/**
 * Where the product lines of a record are, and which of their fields mean what. `material`,
 * `batch`, `quantity` and `unit` are dotted paths within a line (`content.material` on an IBC);
 * `material`, `batch` and `unit` may instead be `$record.<path>`, one value for every line (an IBC
 * batch preparation fills every container from the record's one source lot).
 */
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

/**
 * Effects: the fixed vocabulary the engine knows. A new kind is engine code (plan.ts). Any effect
 * may carry `when`: a MongoDB-style query (mingo; `$today`/`$now` as in RefuseRule) over the
 * record after the input is merged; the effect runs only when it matches (a full IBC's return
 * moves its content, an empty one's does not).
 */
export type EffectDef = EffectKind & { when?: Record<string, unknown> };

export type EffectKind =
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
  | { type: 'updateRecord'; entity: string; id: ValueRef; set: Record<string, ValueRef> }
  /**
   * Sets fields of the record itself (`set`: dotted path → value) and adds to numeric ones (`inc`:
   * dotted path → amount; a blank field counts as 0), e.g. an IBC's fill count on each filling.
   */
  | { type: 'setFields'; set?: Record<string, ValueRef>; inc?: Record<string, number> }
  | TransitionRecordsEffect;

/**
 * Takes a transition of another workflow on each record the lines reference (e.g. an IBC delivery
 * ships every IBC it lists: the `ibc` workflow's `ship` on each). The server hands the referenced
 * records in through `PlanLookup.records`; each is planned like a transition of its own (its
 * `from`, requires, refuse rules, input checks and effects), and its writes join this plan, so
 * the whole operation is written all or nothing. A referenced record absent from the lookup is
 * RECORD_NOT_FOUND; one in a state the transition does not start from, or not matching `match`,
 * is RECORD_NOT_AVAILABLE (409) naming its state and where it is.
 */
export interface TransitionRecordsEffect {
  type: 'transitionRecords';
  /** The workflow governing the referenced records (e.g. `ibc`). */
  workflow: string;
  /** That workflow's transition id, or `$line.<field>` choosing one per line (the field's options must be transition ids). */
  transition: ValueRef;
  /**
   * The record's list field and, in each line, the field holding the referenced record's id;
   * `key`: the line field holding the referenced record's titleField value (an IBC's serial), so
   * a line may name the record by it: the server fills one from the other when a draft is saved.
   */
  records: { field: string; id: string; key?: string };
  /** The input handed to each referenced record's transition: its dotted path → value (`$line.topSeal`, `$record.deposit`). */
  fields?: Record<string, ValueRef>;
  /** Fields each referenced record must hold before the transition (`{"deposit_id": "$record.deposit"}`), else RECORD_NOT_AVAILABLE. */
  match?: Record<string, ValueRef>;
}

/**
 * A rule refusing a transition (TRANSITION_REFUSED, 409) when its query matches the record after
 * the input is merged. In the query, the strings `$today` (YYYY-MM-DD) and `$now` (ISO date-time)
 * stand for the transition's time, and `$before.<path>` for the record's value before it (a return
 * naming no new deposit: `{"deposit_id": "$before.deposit_id"}`). The message is interpolated with `{path}` placeholders read
 * from the record (`{serial_number}`, `{nextInspectionDate}`).
 */
export interface RefuseRule {
  when: Record<string, unknown>;
  message: LocalText;
}

/**
 * A row written to a log entity on every transition of a workflow (e.g. `ibc_event`, the IBC life
 * cycle the holdings and fleet measures are computed from). Every row has `record` (the record's
 * id), `transition`, `from`, `to`, `at`, `by`, `operation` ({workflow, id, transition} of the
 * operation that caused it, when one did) and `since` (when the record entered `from`: the `at`
 * of its previous history entry, or its createdAt), plus `fields` (name → value, resolved against
 * the record after the transition).
 */
export interface LogDef {
  entity: string;
  fields: Record<string, ValueRef>;
}

/**
 * A record field whose value must name an active (state 1) record of another entity by a key
 * field (not by id): a bulk delivery's `truckMapping.truckNo` must be a registered truck's
 * `truckNo`. Checked on every draft save and transition; NOT_REGISTERED (400) otherwise.
 */
export interface RegisteredDef {
  field: string;
  entity: string;
  key: string;
}

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
  /**
   * ObjectEvent: serialised objects listed in the epcList, each a value such as
   * `$record.serial_number` turned into an asset URI (`assetUri`); an event with epcs needs no lines.
   */
  epcs?: ValueRef[];
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
  /** The state after it; absent: the state stays (mapping an NFC tag, moving an IBC between one's own deposits). */
  to?: string;
  /** The access key the actor needs for this transition (or a key whose `operations` list one of this transition's). */
  access: string;
  /** The backend operation keys (SPEC 7) this transition serves, e.g. `completeQC`: a key listing one of them grants it. */
  operations?: string[];
  /** Rules refusing the transition, checked after `requires` and the guard. */
  refuse?: RefuseRule[];
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
  /**
   * The record field naming the company that owns it (a reference to company): a record owned by
   * a company with a deposit in the selected warehouse group is in that group's lists wherever it
   * is, so a fleet owner's staff see their IBCs at customers.
   */
  ownerField?: string;
  /** The date field lists filter on and sort by default. */
  dateField: string;
  /** Whether records are declared to the authority (the Senasa Sync column). */
  declarable?: boolean;
  /** Fields derived from the record on create and edit of drafts, in order (sanitised: always a list). */
  derive?: DeriveDef[];
  /**
   * The backend operation keys (SPEC 7) served by this workflow's routes: `read` by its list and
   * read routes (`searchReturnRequest`, `fetchDeliveries`), `draft` by create and edit
   * (`saveReturnRequest`, `createDelivery`). A key listing one of them grants that route.
   */
  operations?: { read?: string[]; draft?: string[] };
  /** A row written to a log entity on every transition. */
  log?: LogDef;
  /** Fields that must name registered records by key (sanitised: always a list). */
  registered?: RegisteredDef[];
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
  /**
   * Records of other workflows transitioned by `transitionRecords`, as they will be stored (state
   * changed, input merged, history appended); `before` is what the plan was computed from, so the
   * server refuses the whole plan (TRANSITION_CONFLICT) if any of them changed meanwhile.
   */
  records: { workflow: string; entity: string; id: string; before: { state: string; updatedAt?: string }; record: Record<string, unknown> }[];
  /** Log rows (`WorkflowDefinition.log`) of this record's transition and of every record it transitioned. */
  logs: { entity: string; doc: Record<string, unknown> }[];
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
