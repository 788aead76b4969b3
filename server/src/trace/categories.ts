import type { EffectDef, OperationCategory, Registry, WorkflowDef } from '../../../engine/src/index';

interface Traits {
  steps: Set<string>;
  transformation: boolean;
  removes: boolean;
  adds: boolean;
}

function traits(reg: Registry, wf: WorkflowDef, depth: number, into: Traits): void {
  const visit = (effects: readonly EffectDef[] | undefined) => {
    for (const e of effects ?? []) {
      if (e.type === 'emitEvent') {
        if (e.event.type === 'TransformationEvent') into.transformation = true;
        into.steps.add(String(e.event.bizStep));
      } else if (e.type === 'addStock') into.adds = true;
      else if (e.type === 'removeStock') into.removes = true;
      else if (e.type === 'moveStock') { into.adds = true; into.removes = true; }
      else if (e.type === 'transitionRecords' && depth < 2) {
        const other = reg.workflows[e.workflow];
        const t = other?.transitions.find((x) => x.id === e.transition);
        if (t) visit(t.effects);
      }
    }
  };
  for (const t of wf.transitions) visit(t.effects);
}

/** A workflow's category (what its operations are to a trace; see OperationCategory), read from its definition. */
export function categoryOf(reg: Registry, workflow: string): OperationCategory {
  const wf = Object.hasOwn(reg.workflows, workflow) ? reg.workflows[workflow] : undefined;
  if (!wf) return 'operation';
  if (reg.entities[wf.entity]?.kind !== 'operation') return 'container';
  const t: Traits = { steps: new Set(), transformation: false, removes: false, adds: false };
  traits(reg, wf, 0, t);
  if (t.transformation) return 'transformation';
  if (t.steps.has('shipping')) return 'shipment';
  if (t.steps.has('destroying')) return 'scrap';
  if (t.steps.has('dispensing')) return 'consumption';
  if (t.adds && !t.removes) return 'import';
  return 'operation';
}

/** The category of every workflow, computed once per registry. */
export function categories(reg: Registry): Record<string, OperationCategory> {
  return Object.fromEntries(Object.keys(reg.workflows).map((w) => [w, categoryOf(reg, w)]));
}
