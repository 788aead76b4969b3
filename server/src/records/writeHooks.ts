import type { Doc, JsonValue } from '../store/types';

type Rec = Record<string, unknown>;

/** The fields a record's other fields determine, as a patch (undefined removes one), or null when they are current. */
export type Derive = (record: Rec) => Record<string, JsonValue | undefined> | null;

/** A transition about to be written: its workflow, record (derived fields current) and time. */
export interface TransitionWrite { workflow: string; transition: string; recordId: string; at: string; record: Rec }
/** Documents written with a transition, in the same write (a declaration's outbox job), so neither exists without the other. */
export type Companion = (t: TransitionWrite) => { coll: string; doc: Doc }[];

/**
 * Fields derived from a record's own, brought up to date before every write of that entity:
 * one registry per app, into which a capability registers its entity's derivations (an IBC's
 * ADR dates), and which every writer of records applies (master data, imports, transitions).
 * A write never stores a record whose derived fields lag behind the fields it writes.
 */
export class WriteHooks {
  private readonly hooks = new Map<string, Derive[]>();
  private readonly companionsOf = new Map<string, Companion[]>();

  /** `fn` adds documents to every transition of `workflow`. */
  registerCompanion(workflow: string, fn: Companion): void {
    this.companionsOf.set(workflow, [...(this.companionsOf.get(workflow) ?? []), fn]);
  }

  /** The documents to write with this transition. */
  companions(t: TransitionWrite): { coll: string; doc: Doc }[] {
    return (this.companionsOf.get(t.workflow) ?? []).flatMap((fn) => fn(t));
  }

  register(entity: string, derive: Derive): void {
    this.hooks.set(entity, [...(this.hooks.get(entity) ?? []), derive]);
  }

  has(entity: string): boolean {
    return this.hooks.has(entity);
  }

  /** The record with its derived fields current: a new object when a derivation changed something, else the same. */
  apply<T extends Rec>(entity: string, record: T): T {
    const derivations = this.hooks.get(entity);
    if (!derivations) return record;
    let out = record;
    for (const derive of derivations) {
      const patch = derive(out);
      if (!patch) continue;
      out = { ...out };
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined) delete (out as Rec)[k];
        else (out as Rec)[k] = v;
      }
    }
    return out;
  }
}
