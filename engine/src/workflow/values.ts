import { getPath, isRecord } from '../validate/values';
import type { LinesDef, ValueRef } from './types';

type Rec = Record<string, unknown>;

/** What `$` references read while a transition is planned. */
export interface RefScope {
  record: Rec;
  /** The record as it was before the transition (`$before.<path>`). */
  before?: Rec;
  line?: Rec;
  userId: string;
  now: string;
  comment?: string;
}

/** `$record.x`, `$before.x`, `$line.x`, `$actor.userId`, `$now`, `$transition.comment`; anything else is a literal. */
export function resolveRef(ref: ValueRef, scope: RefScope): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('$')) return ref;
  const [head, ...rest] = ref.slice(1).split('.');
  const path = rest.join('.');
  switch (head) {
    case 'record': return getPath(scope.record, path);
    case 'before': return scope.before === undefined ? undefined : getPath(scope.before, path);
    case 'line': return scope.line === undefined ? undefined : getPath(scope.line, path);
    case 'actor': return path === 'userId' ? scope.userId : undefined;
    case 'now': return scope.now;
    case 'transition': return path === 'comment' ? scope.comment : undefined;
    default: return undefined;
  }
}

/** The record path a `$record.` reference reads, for naming the field in an error. */
export function recordPath(ref: ValueRef): string | undefined {
  return typeof ref === 'string' && ref.startsWith('$record.') ? ref.slice('$record.'.length) : undefined;
}

/** The lines of a record: the array at `lines.field`, or the record itself for `.`. */
export function linesOf(record: Rec, lines: LinesDef): Rec[] {
  if (lines.field === '.') return [record];
  const v = getPath(record, lines.field);
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/**
 * A line's value for one of a LinesDef's roles: a dotted path within the line, or `$record.<path>`
 * (one value for every line, e.g. the source lot a batch preparation fills each container from).
 */
export function lineValue(path: string, scope: RefScope & { line: Rec }): unknown {
  return resolveRef(path.startsWith('$') ? path : `$line.${path}`, scope);
}

/** A copy of `value` with `path` set (objects on the way are copied, never shared). */
export function setPath(value: Rec, path: string, v: unknown): Rec {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...value, [head]: v };
  const inner = isRecord(value[head]) ? (value[head] as Rec) : {};
  return { ...value, [head]: setPath(inner, rest.join('.'), v) };
}

/** Empty as a required field sees it: absent, null, blank text, or an empty list. */
export function isBlank(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

/**
 * Every value at a dotted path with the concrete path it is at, lists walked
 * (`productData.batchId` → `productData.0.batchId`, `productData.1.batchId`); none where the path
 * leads through something that is not an object.
 */
export function valuesAt(value: unknown, path: string): { path: string; value: unknown }[] {
  const walk = (v: unknown, parts: string[], at: string): { path: string; value: unknown }[] => {
    if (parts.length === 0) return [{ path: at, value: v }];
    if (Array.isArray(v)) return v.flatMap((x, i) => walk(x, parts, `${at}.${i}`));
    if (!isRecord(v)) return [];
    const [head, ...rest] = parts;
    return walk(v[head], rest, at ? `${at}.${head}` : head);
  };
  return walk(value, path.split('.'), '');
}

