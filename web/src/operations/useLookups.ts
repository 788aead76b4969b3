import { useEffect, useState } from 'react';
import type { FieldDef, LinesDef } from '../../../engine/src/index';
import { recordTitle, type RefTitles } from '../../../engine/src/list/index';
import { referenceSites } from '../../../engine/src/validate/values';
import type { Rec } from '../masterdata/api';
import { useMasterData } from '../masterdata/useMasterData';
import { useOperation } from './context';
import { lineParts, stockKey } from './model';

/** The stock of each line's material and batch at each deposit, by stockKey; fetched again when `version` changes. */
export function useLineStock(lines: LinesDef | undefined, rows: Rec[], deposits: string[], version: number): Map<string, number> {
  const { ops } = useOperation();
  const [stock, setStock] = useState<Map<string, number>>(new Map());
  const keys = lines ? [...new Set(rows.flatMap((r) => { const p = lineParts(lines, r); return deposits.map((d) => stockKey(p.material, p.batch, d)); }))] : [];
  const sig = keys.join('\n');
  useEffect(() => {
    let live = true;
    const wanted = sig ? sig.split('\n') : [];
    Promise.all(wanted.map(async (k) => {
      const [material, batch, deposit] = k.split('|');
      if (!material || !batch) return [k, 0] as const;
      const a = await ops.stock({ material, batch, deposit }).catch(() => ({ data: [] }));
      return [k, a.data.reduce((n, row) => n + (row.quantity ?? 0), 0)] as const;
    })).then((pairs) => live && setStock(new Map(pairs)));
    return () => { live = false; };
  }, [ops, sig, version]);
  return stock;
}

/** The ids a record and its lines point to, by target entity. */
export function referencedByRecord(record: Rec | undefined, fields: readonly FieldDef[]): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>();
  if (record) {
    for (const s of referenceSites(fields, record)) {
      if (typeof s.value !== 'string' || !s.value) continue;
      const ids = wanted.get(s.field.ref!) ?? new Set<string>();
      wanted.set(s.field.ref!, ids.add(s.value));
    }
  }
  return wanted;
}

/** The titles of referenced records (deposits, materials), looked up once per id and kept while the screen lives. */
export function useTitles(wanted: Map<string, Set<string>>): RefTitles | undefined {
  const { md, registry, lang } = useMasterData();
  const [titles, setTitles] = useState<RefTitles | undefined>(undefined);
  const sig = JSON.stringify([...wanted].map(([e, ids]) => [e, [...ids].sort()]).sort());
  useEffect(() => {
    let live = true;
    const pairs = JSON.parse(sig) as [string, string[]][];
    if (pairs.length === 0) return;
    Promise.all(pairs.flatMap(([entity, ids]) => ids.map(async (id) => {
      const r = await md.get(entity, id).catch(() => undefined);
      return [entity, id, r ? recordTitle(registry.entities[entity], r, lang) : id] as const;
    }))).then((rows) => {
      if (!live) return;
      const out: Record<string, Record<string, string>> = {};
      for (const [e, id, title] of rows) (out[e] ??= {})[id] = title;
      setTitles(out);
    });
    return () => { live = false; };
  }, [sig, md, registry, lang]);
  return titles;
}
