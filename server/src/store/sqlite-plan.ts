/**
 * Chooses between the two plans for a sorted page ("ORDER BY key LIMIT n" with a filter):
 * walking the sort key's index and filtering as it goes, or fetching every match through a
 * filter index and sorting them. SQLite's planner picks the filter index whenever there is one,
 * even when the filter keeps most rows (state = 1, type = 'lab'): then it sorts tens of thousands
 * of rows for a page of 20. A bounded probe counts up to PROBE matches through the filter's own
 * index; that many matches means the filter is not selective, and walking the sort index finds
 * a page after reading a few rows per match, so the filter is compiled without index use.
 */
import type Database from 'better-sqlite3';
import { compileFilter, sortIndexed, usesIndex, type CompileEnv, type Compiled } from './sqlite-sql.js';
import type { Filter, SortSpec } from './types.js';

const PROBE = 1000;
/** A decision stays valid until the collection has seen this many writes. */
const STALE_AFTER = 1000;

export interface PlanTarget {
  table: string;
  env: CompileEnv;
  writes: number;
}

export class PagePlanner {
  private readonly decisions = new Map<string, { walkSortIndex: boolean; writes: number }>();

  constructor(private readonly db: Database.Database) {}

  where(c: PlanTarget, filter: Filter | undefined, sort: SortSpec | undefined, window: number | undefined): Compiled {
    const normal = compileFilter(c.env, filter);
    if (window === undefined || window > PROBE || !sortIndexed(c.env, sort) || !usesIndex(c.env, filter)) return normal;
    const key = `${c.table} ${normal.sql} ${JSON.stringify(normal.params)}`;
    let d = this.decisions.get(key);
    if (!d || c.writes - d.writes >= STALE_AFTER) {
      const n = this.db.prepare(`SELECT count(*) FROM (SELECT 1 FROM ${c.table} WHERE ${normal.sql} LIMIT ${PROBE})`).pluck().get(...normal.params) as number;
      d = { walkSortIndex: n >= PROBE, writes: c.writes };
      if (this.decisions.size >= 500) this.decisions.delete(this.decisions.keys().next().value as string);
      this.decisions.set(key, d);
    }
    return d.walkSortIndex ? compileFilter(c.env, filter, { noIndex: true }) : normal;
  }
}
