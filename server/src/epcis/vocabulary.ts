/**
 * The Core Business Vocabulary as capture checks it and the event hash spells it. The JSON binding
 * writes CBV terms bare (`shipping`); a term may also arrive as its URN
 * (`urn:epcglobal:cbv:bizstep:shipping`) or its web URI (`https://ref.gs1.org/cbv/BizStep-shipping`),
 * which the JSON schema refuses, so capture rewrites those to the bare name before it validates.
 */
import { CBV_BIZ_STEPS, CBV_BIZ_TRANSACTION_TYPES, CBV_DISPOSITIONS, CBV_SOURCE_DESTINATION_TYPES } from '../../../engine/src/index';

export type CbvKind = 'bizstep' | 'disp' | 'btt' | 'sdt' | 'er';

const TERMS: Record<CbvKind, ReadonlySet<string>> = {
  bizstep: new Set(CBV_BIZ_STEPS),
  disp: new Set(CBV_DISPOSITIONS),
  btt: new Set(CBV_BIZ_TRANSACTION_TYPES),
  sdt: new Set(CBV_SOURCE_DESTINATION_TYPES),
  er: new Set(['did_not_occur', 'incorrect_data']),
};

/** The CBV 2.0 web URI of each kind's terms (the hash's spelling), and the forms accepted on capture. */
const WEB: Record<CbvKind, string> = {
  bizstep: 'https://ref.gs1.org/cbv/BizStep-',
  disp: 'https://ref.gs1.org/cbv/Disp-',
  btt: 'https://ref.gs1.org/cbv/BTT-',
  sdt: 'https://ref.gs1.org/cbv/SDT-',
  er: 'https://ref.gs1.org/cbv/ER-',
};
const PREFIXES: Record<CbvKind, string[]> = {
  bizstep: ['urn:epcglobal:cbv:bizstep:', WEB.bizstep, 'https://ns.gs1.org/cbv/BizStep-'],
  disp: ['urn:epcglobal:cbv:disp:', WEB.disp, 'https://ns.gs1.org/cbv/Disp-'],
  btt: ['urn:epcglobal:cbv:btt:', WEB.btt, 'https://ns.gs1.org/cbv/BTT-'],
  sdt: ['urn:epcglobal:cbv:sdt:', WEB.sdt, 'https://ns.gs1.org/cbv/SDT-'],
  er: ['urn:epcglobal:cbv:er:', WEB.er, 'https://ns.gs1.org/cbv/ER-'],
};

/** Whether a value is written in one of the CBV's own namespaces (so it must name a CBV term). */
export function inCbvNamespace(kind: CbvKind, value: string): boolean {
  return PREFIXES[kind].some((p) => value.startsWith(p));
}

/** The bare CBV name of a term written bare, as URN or as web URI; the value itself otherwise. */
export function bareTerm(kind: CbvKind, value: string): string {
  for (const p of PREFIXES[kind]) if (value.startsWith(p)) return value.slice(p.length);
  return value;
}

export function isTerm(kind: CbvKind, value: string): boolean {
  return TERMS[kind].has(bareTerm(kind, value));
}

/** The term as the event hash writes it: a CBV term as its web URI, anything else unchanged. */
export function hashTerm(kind: CbvKind, value: string): string {
  const bare = bareTerm(kind, value);
  return TERMS[kind].has(bare) ? WEB[kind] + bare : value;
}

type Ev = Record<string, unknown>;

/** Where an event holds CBV terms: a top-level field, or a field of each element of a list. */
const TERM_FIELDS: { path: string; kind: CbvKind; checked: boolean }[] = [
  { path: 'bizStep', kind: 'bizstep', checked: true },
  { path: 'disposition', kind: 'disp', checked: true },
  { path: 'persistentDisposition.set[]', kind: 'disp', checked: true },
  { path: 'persistentDisposition.unset[]', kind: 'disp', checked: true },
  { path: 'bizTransactionList[].type', kind: 'btt', checked: false },
  { path: 'sourceList[].type', kind: 'sdt', checked: false },
  { path: 'destinationList[].type', kind: 'sdt', checked: false },
  { path: 'errorDeclaration.reason', kind: 'er', checked: false },
];

export interface VocabularyProblem {
  /** JSON pointer inside the event. */
  pointer: string;
  value: string;
}

/**
 * Rewrites the event's CBV terms written as URN or web URI to their bare names (in place) and
 * returns the bizStep and disposition values that are not CBV terms: a bare word or a CBV-namespaced
 * URI naming no term, or any other URI (the platform speaks the CBV only for these two fields). The
 * other kinds (transaction, source and destination types, error reasons) may be another
 * vocabulary's URI, as the schema allows; written in the CBV's namespace they must name a CBV term.
 */
export function normaliseTerms(event: Ev): VocabularyProblem[] {
  const problems: VocabularyProblem[] = [];
  const visit = (holder: Ev | unknown[], key: string | number, pointer: string, kind: CbvKind, checked: boolean) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (typeof value !== 'string') return;
    const bare = bareTerm(kind, value);
    if (TERMS[kind].has(bare)) {
      (holder as Record<string | number, unknown>)[key] = bare;
      return;
    }
    if (checked || inCbvNamespace(kind, value)) problems.push({ pointer, value });
  };
  for (const { path, kind, checked } of TERM_FIELDS) {
    const [head, tail] = path.split('[]');
    const segs = head.split('.');
    let holder: unknown = event;
    for (const s of segs.slice(0, -1)) holder = holder && typeof holder === 'object' ? (holder as Ev)[s] : undefined;
    if (!holder || typeof holder !== 'object') continue;
    const last = segs[segs.length - 1];
    const pointer = `/${segs.join('/')}`;
    if (tail === undefined) {
      visit(holder as Ev, last, pointer, kind, checked);
      continue;
    }
    const list = (holder as Ev)[last];
    if (!Array.isArray(list)) continue;
    const field = tail.replace(/^\./, '');
    list.forEach((item, i) => {
      if (!field) visit(list, i, `${pointer}/${i}`, kind, checked);
      else if (item && typeof item === 'object') visit(item as Ev, field, `${pointer}/${i}/${field}`, kind, checked);
    });
  }
  return problems;
}
