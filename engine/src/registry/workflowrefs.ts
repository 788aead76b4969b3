import type { FieldDef } from '../types';
import { isCbvTerm } from '../workflow/cbv';
import { HISTORY_FIELD } from '../workflow/plan';
import { queryProblem } from '../workflow/query';
import type { EffectDef, EventTemplate, LinesDef, TransitionDef, ValueRef, WorkflowDefinition } from '../workflow/types';
import type { Parsed } from './load';
import { fieldAt } from './registry';

type Add = (file: string, pointer: string, message: string) => void;

/** The entity deposits are divisions of (SPEC 3.5): every deposit a workflow names references it. */
export const DEPOSIT_ENTITY = 'company_division';

/** The fields every log row has (LogDef), besides the workflow's own. */
export const LOG_ROW_FIELDS = ['record', 'transition', 'from', 'to', 'at', 'since', 'by', 'operation'];

/** Value roots naming a field of the record itself: after the transition's input is merged, or before it. */
const RECORD_ROOTS = ['$record.', '$before.'];

/** Every backend operation key (SPEC 7) a workflow says its routes and transitions serve. */
export function workflowOperations(def: WorkflowDefinition): string[] {
  return [...(def.operations?.read ?? []), ...(def.operations?.draft ?? []), ...def.transitions.flatMap((t) => t.operations ?? [])];
}

/** The `{path}` placeholders of a refuse rule's message. */
function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{([A-Za-z][A-Za-z0-9_.-]*)\}/g)].map((m) => m[1]);
}

/**
 * What the workflow meta-schema cannot see: the entity it governs and the fields, states, keys,
 * lines and references it names; CBV terms of its events; guards mingo can run.
 */
export function checkWorkflows(p: Parsed, add: Add, checkAccess: (file: string, pointer: string, key: string | undefined) => void): void {
  for (const [, { file, def }] of p.workflows) {
    const entity = p.entities.get(def.entity)?.def;
    if (!entity) { add(file, '/entity', `entity "${def.entity}" does not exist`); continue; }
    // A master record (an IBC) may have a life cycle too, as long as no client can write its state.
    if (entity.kind === 'master') {
      if (!entity.serverFields?.includes(def.stateField)) add(file, '/stateField', `field "${def.stateField}" of master entity "${def.entity}" must be one of its serverFields, so only transitions change it`);
    } else if (entity.kind !== 'operation') add(file, '/entity', `entity "${def.entity}" is of kind ${entity.kind}, not operation or master`);
    const fields = entity.fields;
    const need = (pointer: string, path: string, within: readonly FieldDef[] = fields, where = def.entity): FieldDef | undefined => {
      const f = fieldAt(within, path);
      if (!f) add(file, pointer, `field "${path}" does not exist in ${where}`);
      return f;
    };
    checkAccess(file, '/access', def.access);
    if (def.declarable && !entity.sync) add(file, '/declarable', `entity "${def.entity}" is not declared to the authority ("sync": true)`);
    if (def.declarable && p.deployment && !p.deployment.def.settings.sync?.deadlineMinutes[def.name]) {
      add(p.deployment.file, '/settings/sync/deadlineMinutes', `declarable workflow "${def.name}" has no deadline`);
    }
    const stateField = need('/stateField', def.stateField);
    if (!fieldAt(fields, HISTORY_FIELD)) add(file, '/entity', `entity "${def.entity}" has no "${HISTORY_FIELD}" field for the transitions' history`);
    need('/dateField', def.dateField);
    const depositField = (pointer: string, path: string) => {
      const f = need(pointer, path);
      if (f && f.ref !== DEPOSIT_ENTITY) add(file, pointer, `field "${path}" must be a reference to ${DEPOSIT_ENTITY}`);
    };
    def.depositFields.forEach((d, i) => depositField(`/depositFields/${i}`, d));
    if (def.ownerField !== undefined) {
      const f = need('/ownerField', def.ownerField);
      if (f && f.ref !== 'company') add(file, '/ownerField', `field "${def.ownerField}" must be a reference to company`);
    }

    const states = new Set<string>();
    def.states.forEach((s, i) => {
      if (states.has(s.id)) add(file, `/states/${i}/id`, `state "${s.id}" is declared twice`);
      states.add(s.id);
      if (stateField?.options && !stateField.options.some((o) => o.value === s.id)) {
        add(file, `/states/${i}/id`, `state "${s.id}" is not an option of ${def.entity}.${def.stateField}`);
      }
    });
    if (!states.has(def.initial)) add(file, '/initial', `state "${def.initial}" is not declared`);

    /** The fields of a line: the lines field's own, or the entity's when the record is its own line. */
    const lineFields = (pointer: string, lines: LinesDef | undefined): readonly FieldDef[] | undefined => {
      if (!lines) return undefined;
      const within = lines.field === '.' ? fields : need(`${pointer}/field`, lines.field)?.fields;
      if (!within) {
        if (lines.field !== '.' && fieldAt(fields, lines.field)) add(file, `${pointer}/field`, `field "${lines.field}" is not a list of objects`);
        return undefined;
      }
      for (const k of ['material', 'batch', 'quantity', 'unit', 'rejected', 'accepted'] as const) {
        const path = lines[k];
        if (path === undefined) continue;
        if (path.startsWith('$record.')) need(`${pointer}/${k}`, path.slice(8), fields);
        else need(`${pointer}/${k}`, path, within, `the lines ${lines.field}`);
      }
      return within;
    };
    const workflowLines = lineFields('/lines', def.lines);

    /** A `$record.` or `$line.` reference must name a field; `$line.` only where lines are walked. */
    const ref = (pointer: string, value: ValueRef | undefined, line: readonly FieldDef[] | undefined, deposit = false) => {
      if (typeof value !== 'string') return;
      const root = RECORD_ROOTS.find((r) => value.startsWith(r));
      if (root) {
        const f = need(pointer, value.slice(root.length));
        if (f && deposit && f.ref !== DEPOSIT_ENTITY) add(file, pointer, `field "${value.slice(root.length)}" must be a reference to ${DEPOSIT_ENTITY}`);
      } else if (value.startsWith('$line.')) {
        if (!line) add(file, pointer, `${value} is used where no lines are walked`);
        else need(pointer, value.slice(6), line, 'the lines');
      }
    };
    const linesOr = (pointer: string, own: LinesDef | undefined, what: string) => {
      if (!own && !def.lines) { add(file, pointer, `${what} walks lines: name them here or in the workflow's "lines"`); return undefined; }
      return own ? lineFields(`${pointer}/lines`, own) : workflowLines;
    };

    def.derive?.forEach((d, i) => {
      const at = `/derive/${i}`;
      const f = need(`${at}/field`, d.field);
      if (f && !entity.serverFields?.includes(d.field)) add(file, `${at}/field`, `field "${d.field}" is derived: list it in ${def.entity}'s serverFields, so no client writes it`);
      const values = [...d.cases.map((c, j) => [`${at}/cases/${j}/value`, c.value] as const), [`${at}/otherwise`, d.otherwise] as const];
      for (const [pointer, v] of values) {
        if (f?.options && !f.options.some((o) => o.value === v)) add(file, pointer, `${JSON.stringify(v)} is not an option of ${def.entity}.${d.field}`);
      }
      d.cases.forEach((c, j) => {
        const problem = queryProblem(c.when);
        if (problem) add(file, `${at}/cases/${j}/when`, `not a valid query: ${problem}`);
      });
    });

    const query = (pointer: string, q: Record<string, unknown> | undefined) => {
      const problem = q && queryProblem(q);
      if (problem) add(file, pointer, `not a valid query: ${problem}`);
    };

    if (def.log) {
      const log = p.entities.get(def.log.entity)?.def;
      if (!log) add(file, '/log/entity', `entity "${def.log.entity}" does not exist`);
      else {
        const missing = LOG_ROW_FIELDS.filter((f) => !fieldAt(log.fields, f));
        if (missing.length) add(file, '/log/entity', `entity "${def.log.entity}" has no ${missing.map((f) => `"${f}"`).join(', ')} field for the log rows`);
      }
      for (const [k, v] of Object.entries(def.log.fields)) {
        if (log) need(`/log/fields/${k}`, k, log.fields, def.log.entity);
        ref(`/log/fields/${k}`, v, undefined);
      }
    }
    def.registered?.forEach((r, i) => {
      need(`/registered/${i}/field`, r.field);
      const target = p.entities.get(r.entity)?.def;
      if (!target) add(file, `/registered/${i}/entity`, `entity "${r.entity}" does not exist`);
      else need(`/registered/${i}/key`, r.key, target.fields, r.entity);
    });

    const ids = new Set<string>();
    def.transitions.forEach((t, i) => {
      const at = `/transitions/${i}`;
      if (ids.has(t.id)) add(file, `${at}/id`, `transition "${t.id}" is declared twice`);
      ids.add(t.id);
      t.from.forEach((s, j) => { if (!states.has(s)) add(file, `${at}/from/${j}`, `state "${s}" is not declared`); });
      if (t.to !== undefined && !states.has(t.to)) add(file, `${at}/to`, `state "${t.to}" is not declared`);
      checkAccess(file, `${at}/access`, t.access);
      t.requires?.forEach((f, j) => need(`${at}/requires/${j}`, f));
      t.input?.forEach((f, j) => need(`${at}/input/${j}`, f));
      if (t.at !== undefined) depositField(`${at}/at`, t.at);
      query(`${at}/guard`, t.guard);
      t.refuse?.forEach((r, j) => {
        query(`${at}/refuse/${j}/when`, r.when);
        const en = placeholdersOf(r.message.en);
        en.forEach((path) => need(`${at}/refuse/${j}/message/en`, path));
        for (const [lang, text] of Object.entries(r.message)) {
          if (placeholdersOf(text).sort().join() !== [...en].sort().join()) add(file, `${at}/refuse/${j}/message/${lang}`, `placeholders differ from the en message's {${en.join('}, {')}}`);
        }
      });
      if (t.setLines) {
        const line = linesOr(`${at}/setLines`, t.setLines.lines, 'setLines');
        for (const [k, v] of Object.entries(t.setLines.set)) {
          if (line) need(`${at}/setLines/set/${k}`, k, line, 'the lines');
          ref(`${at}/setLines/set/${k}`, v, line);
        }
      }
      t.effects?.forEach((e, j) => checkEffect(`${at}/effects/${j}`, e));
    });

    function checkEffect(at: string, e: EffectDef): void {
      query(`${at}/when`, e.when);
      switch (e.type) {
        case 'addStock': case 'removeStock': {
          const line = linesOr(at, e.lines, e.type);
          ref(`${at}/deposit`, e.deposit, line, true);
          ref(`${at}/quantity`, e.quantity, line);
          if (e.type === 'addStock') {
            ref(`${at}/lot/elaborationDate`, e.lot?.elaborationDate, line);
            ref(`${at}/lot/expirationDate`, e.lot?.expirationDate, line);
          }
          break;
        }
        case 'moveStock': {
          const line = linesOr(at, e.lines, e.type);
          ref(`${at}/from`, e.from, line, true);
          ref(`${at}/to`, e.to, line, true);
          ref(`${at}/quantity`, e.quantity, line);
          break;
        }
        case 'emitEvent': checkEvent(`${at}/event`, e.event); break;
        case 'setSyncPending':
          if (!entity!.sync) add(file, `${at}/type`, `entity "${def.entity}" is not declared to the authority ("sync": true)`);
          break;
        case 'updateRecord': {
          const target = p.entities.get(e.entity)?.def;
          if (!target) { add(file, `${at}/entity`, `entity "${e.entity}" does not exist`); break; }
          ref(`${at}/id`, e.id, undefined);
          for (const [k, v] of Object.entries(e.set)) {
            need(`${at}/set/${k}`, k, target.fields, e.entity);
            ref(`${at}/set/${k}`, v, undefined);
          }
          break;
        }
        case 'setFields': {
          for (const [k, v] of Object.entries(e.set ?? {})) {
            need(`${at}/set/${k}`, k);
            ref(`${at}/set/${k}`, v, undefined);
          }
          for (const k of Object.keys(e.inc ?? {})) {
            const f = need(`${at}/inc/${k}`, k);
            if (f && f.type !== 'number' && f.type !== 'integer') add(file, `${at}/inc/${k}`, `field "${k}" is not a number`);
          }
          break;
        }
        case 'transitionRecords': checkTransitionRecords(at, e); break;
        case 'raiseAlert': break;
      }
    }

    /** The list field and its reference to the other workflow's entity, the transitions taken, and what they are handed. */
    function checkTransitionRecords(at: string, e: Extract<EffectDef, { type: 'transitionRecords' }>): void {
      const child = p.workflows.get(e.workflow)?.def;
      if (!child) add(file, `${at}/workflow`, `workflow "${e.workflow}" does not exist`);
      const list = need(`${at}/records/field`, e.records.field);
      const line = list?.type === 'object' && list.multiple ? list.fields : undefined;
      if (list && !line) add(file, `${at}/records/field`, `field "${e.records.field}" is not a list of objects`);
      const idField = line && need(`${at}/records/id`, e.records.id, line, `the lines ${e.records.field}`);
      if (idField && child && (idField.type !== 'reference' || idField.ref !== child.entity)) {
        add(file, `${at}/records/id`, `field "${e.records.id}" must be a reference to ${child.entity}`);
      }
      if (e.records.key !== undefined && line) need(`${at}/records/key`, e.records.key, line, `the lines ${e.records.field}`);
      const targets: TransitionDef[] = [];
      const target = (id: unknown, pointer: string, what: string) => {
        const found = child!.transitions.find((x) => x.id === id);
        if (found) targets.push(found);
        else add(file, pointer, `${what} is not a transition of ${child!.name}`);
      };
      if (child && typeof e.transition === 'string' && e.transition.startsWith('$line.')) {
        const path = e.transition.slice(6);
        const chooser = line && need(`${at}/transition`, path, line, 'the lines');
        if (chooser && !chooser.options) add(file, `${at}/transition`, `field "${path}" has no options: they must be transition ids of ${child.name}`);
        chooser?.options?.forEach((o) => target(o.value, `${at}/transition`, `option "${o.value}" of ${path}`));
      } else if (child) target(e.transition, `${at}/transition`, `"${e.transition}"`);
      const childFields = child && p.entities.get(child.entity)?.def.fields;
      for (const [k, v] of Object.entries(e.match ?? {})) {
        if (childFields) need(`${at}/match/${k}`, k, childFields, child.entity);
        ref(`${at}/match/${k}`, v, line);
      }
      for (const [k, v] of Object.entries(e.fields ?? {})) {
        for (const tr of targets) if (!tr.input?.includes(k)) add(file, `${at}/fields/${k}`, `"${k}" is not an input of ${child!.name}'s transition ${tr.id}`);
        ref(`${at}/fields/${k}`, v, line);
      }
    }

    function checkEvent(at: string, ev: EventTemplate): void {
      if (!isCbvTerm('bizstep', ev.bizStep)) add(file, `${at}/bizStep`, `"${ev.bizStep}" is not a CBV bizStep`);
      if (ev.disposition !== undefined && !isCbvTerm('disp', ev.disposition)) add(file, `${at}/disposition`, `"${ev.disposition}" is not a CBV disposition`);
      if (ev.bizTransaction) {
        if (!ev.bizTransaction.type.includes(':') && !isCbvTerm('btt', ev.bizTransaction.type)) add(file, `${at}/bizTransaction/type`, `"${ev.bizTransaction.type}" is not a CBV business transaction type`);
        ref(`${at}/bizTransaction/value`, ev.bizTransaction.value, undefined);
      }
      ref(`${at}/readPoint`, ev.readPoint, undefined, true);
      ref(`${at}/bizLocation`, ev.bizLocation, undefined, true);
      for (const side of ['source', 'destination'] as const) {
        ev[side]?.forEach((s, k) => {
          if (!s.type.includes(':') && !isCbvTerm('sdt', s.type)) add(file, `${at}/${side}/${k}/type`, `"${s.type}" is not a CBV source/destination type`);
          ref(`${at}/${side}/${k}/value`, s.value, undefined, true);
        });
      }
      ev.epcs?.forEach((v, k) => ref(`${at}/epcs/${k}`, v, undefined));
      // An event of serialised objects needs no lines; one of quantities walks them.
      if (ev.type === 'ObjectEvent' && (!ev.epcs || ev.lines)) ref(`${at}/quantity`, ev.quantity, linesOr(at, ev.lines, 'an ObjectEvent'));
      else {
        if (ev.inputs) lineFields(`${at}/inputs`, ev.inputs);
        if (ev.outputs) lineFields(`${at}/outputs`, ev.outputs);
      }
    }
  }
}
