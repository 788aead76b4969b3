/**
 * SQL functions the compiled filters call: they evaluate with mingo where SQL alone would not
 * match MongoDB (arrays, regular expressions). Aggregation is in sqlite-aggregate.ts.
 */
import type Database from 'better-sqlite3';
import { Query } from 'mingo';

/** Bounded cache: filters and patterns come from requests, so an unbounded map would grow forever. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string, make: () => V): V {
    let v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
    } else {
      v = make();
      if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    }
    this.map.set(key, v);
    return v;
  }
}

// Options that keep mingo to MongoDB's behaviour and away from running code.
export const MINGO_OPTIONS = { scriptEnabled: false } as const;

export function registerFunctions(db: Database.Database): void {
  const queries = new Lru<Query>(256);
  const regexes = new Lru<RegExp>(256);
  // Several conditions of one filter may look at the same row in turn; parse its JSON once.
  let lastText = '';
  let lastDoc: unknown = null;

  db.function('mq_match', { deterministic: true }, (docText: unknown, filterJson: unknown) => {
    if (typeof docText !== 'string' || typeof filterJson !== 'string') return 0;
    if (docText !== lastText) {
      lastDoc = JSON.parse(docText);
      lastText = docText;
    }
    const q = queries.get(filterJson, () => new Query(JSON.parse(filterJson), MINGO_OPTIONS));
    return q.test(lastDoc as Record<string, unknown>) ? 1 : 0;
  });

  // MongoDB applies $regex to strings only; the key expression hands over TEXT for strings alone.
  db.function('mq_regex', { deterministic: true }, (value: unknown, pattern: unknown, flags: unknown) => {
    if (typeof value !== 'string') return 0;
    const re = regexes.get(`${String(flags)}/${String(pattern)}`, () => new RegExp(String(pattern), String(flags)));
    return re.test(value) ? 1 : 0;
  });
}
