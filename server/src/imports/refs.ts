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

export class RowReferences {
  private readonly walker: Walker | undefined;
  private readonly resolver: ReferenceResolver;
  private readonly memo = new Map<string, string | null>();

  constructor(reg: Registry, store: Store, fields: readonly FieldDef[]) {
    this.walker = compileWalker(fields);
    this.resolver = new ReferenceResolver(reg, store, { byKeyValue: true });
  }

  /** Replaces each reference in the value by its id; a message for each that names nothing. */
  async resolve(value: Rec): Promise<{ field: string; message: RowMessage['message']; code: string; params: Rec }[]> {
    if (!this.walker) return [];
    const sites: { field: FieldDef; path: string; holder: Rec | unknown[]; key: string | number }[] = [];
    this.walker(value, '', (field, path, holder, key) => sites.push({ field, path, holder, key }));
    const missing: { field: string; message: string; code: string; params: Rec }[] = [];
    for (const s of sites) {
      const raw = (s.holder as Rec)[s.key as string];
      const target = s.field.ref!;
      const scalar = typeof raw === 'string' || typeof raw === 'number';
      const memoKey = scalar ? `${target}\u0000${typeof raw}\u0000${raw}` : undefined;
      let id = memoKey !== undefined ? this.memo.get(memoKey) : undefined;
      if (id === undefined) {
        id = await this.resolver.resolve(target, raw);
        if (memoKey !== undefined) {
          if (this.memo.size > 200_000) this.memo.clear();
          this.memo.set(memoKey, id);
        }
      }
      if (id) {
        (s.holder as Rec)[s.key as string] = id;
        continue;
      }
      const params = { label: localize(s.field.label), type: target, value: (JSON.stringify(raw) ?? '').slice(0, 100) };
      missing.push({ field: s.path, code: 'FORMAT_REFERENCE_NOT_FOUND', message: formatError('FORMAT_REFERENCE_NOT_FOUND', params), params });
    }
    return missing;
  }
}
