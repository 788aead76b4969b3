/**
 * References in imported rows, resolved with a memo in front of the shared ReferenceResolver:
 * a file of a million rows naming the same company asks the resolver once, and a row costs a
 * map lookup per reference. The walker is compiled from the definition, so only the paths
 * that can hold a reference are visited.
 */
import { formatError, localize, type FieldDef, type Registry } from '../../../engine/src/index';
import { ReferenceResolver } from '../masterdata/references';
import type { Store } from '../store/types';
import type { RowMessage } from './jobs';

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Calls visit for each reference value found: its field, dotted path, and where to write the id. */
type Walker = (value: Rec, prefix: string, visit: (field: FieldDef, path: string, holder: Rec | unknown[], key: string | number) => void) => void;

function compileWalker(fields: readonly FieldDef[]): Walker | undefined {
  const steps: Walker[] = [];
  for (const f of fields) {
    if (f.type === 'reference') {
      steps.push((value, prefix, visit) => {
        const v = value[f.id];
        if (v === undefined || v === null) return;
        const path = prefix ? `${prefix}.${f.id}` : f.id;
        if (f.multiple && Array.isArray(v)) v.forEach((item, i) => { if (item !== undefined && item !== null) visit(f, `${path}.${i}`, v, i); });
        else visit(f, path, value, f.id);
      });
    } else if (f.fields) {
      const inner = compileWalker(f.fields);
      if (!inner) continue;
      steps.push((value, prefix, visit) => {
        const v = value[f.id];
        const path = prefix ? `${prefix}.${f.id}` : f.id;
        if (f.multiple && Array.isArray(v)) v.forEach((row, i) => { if (isRec(row)) inner(row, `${path}.${i}`, visit); });
        else if (isRec(v)) inner(v, path, visit);
      });
    }
  }
  if (steps.length === 0) return undefined;
  return (value, prefix, visit) => { for (const s of steps) s(value, prefix, visit); };
}

type Missing = { field: string; message: RowMessage['message']; code: string; params: Rec };

/** Where a reference sits in a row, and the id it resolved to (null: names nothing). */
interface Site {
  field: FieldDef;
  path: string;
  holder: Rec | unknown[];
  key: string | number;
  id?: string | null;
}

const raw = (s: Site): unknown => (s.holder as Rec)[s.key as string];

/** Strings and numbers are remembered, by target entity and type: "7" and 7 may name different records. */
function memoKey(s: Site): string | undefined {
  const v = raw(s);
  return typeof v === 'string' || typeof v === 'number' ? `${s.field.ref!}\u0000${typeof v}\u0000${v}` : undefined;
}

export class RowReferences {
  private readonly walker: Walker | undefined;
  private readonly resolver: ReferenceResolver;
  private readonly memo = new Map<string, string | null>();

  constructor(reg: Registry, store: Pick<Store, 'find'>, fields: readonly FieldDef[]) {
    this.walker = compileWalker(fields);
    this.resolver = new ReferenceResolver(reg, store, { byKeyValue: true });
  }

  /**
   * Replaces each reference in the value by its id; a message for each that names nothing.
   * Synchronous (no promise) when every value met is already remembered: a row then costs a
   * map lookup per reference, not a trip through the microtask queue.
   */
  resolve(value: Rec): Missing[] | Promise<Missing[]> {
    if (!this.walker) return [];
    const sites: Site[] = [];
    this.walker(value, '', (field, path, holder, key) => sites.push({ field, path, holder, key }));
    for (const s of sites) {
      const k = memoKey(s);
      s.id = k === undefined ? undefined : this.memo.get(k);
      if (s.id === undefined) return this.lookUp(sites);
    }
    return this.apply(sites);
  }

  /** Asks the resolver for the values not remembered yet, then applies them all. */
  private async lookUp(sites: Site[]): Promise<Missing[]> {
    for (const s of sites) {
      const k = memoKey(s);
      s.id = k === undefined ? undefined : this.memo.get(k);
      if (s.id !== undefined) continue;
      s.id = await this.resolver.resolve(s.field.ref!, raw(s));
      if (k === undefined) continue;
      if (this.memo.size > 200_000) this.memo.clear();
      this.memo.set(k, s.id);
    }
    return this.apply(sites);
  }

  private apply(sites: Site[]): Missing[] {
    const missing: Missing[] = [];
    for (const s of sites) {
      if (s.id) {
        (s.holder as Rec)[s.key as string] = s.id;
        continue;
      }
      const params = { label: localize(s.field.label), type: s.field.ref!, value: (JSON.stringify(raw(s)) ?? '').slice(0, 100) };
      missing.push({ field: s.path, code: 'FORMAT_REFERENCE_NOT_FOUND', message: formatError('FORMAT_REFERENCE_NOT_FOUND', params), params });
    }
    return missing;
  }
}
