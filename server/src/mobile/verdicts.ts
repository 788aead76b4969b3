import { ERRORS, formatError, interpolate, localize, type ErrorCode, type Lang, type LocalText, type MobileActionPayload, type Registry } from '../../../engine/src/index';
import type { CollectionSpec } from '../store/types';

/** Every verdict the server gave an action, one document per (user, device, sequence number): its id. */
export const VERDICTS = 'mobile_action';
/** Each user's accepted mobile terms version, one document per user (its id). */
export const TERMS = 'mobile_terms';
export const MOBILE_COLLECTIONS: CollectionSpec[] = [
  { name: VERDICTS, uniqueKeys: [], indexes: ['userId', 'deviceId', 'seq'] },
  { name: TERMS, uniqueKeys: [], indexes: [] },
];

export function verdictId(userId: string, deviceId: string, seq: number): string {
  return `${userId}:${deviceId}:${seq}`;
}

/** A refusal as stored: the catalogue code, the values its message is written with, the hint's and the field problems. */
export interface StoredError {
  code: ErrorCode;
  params: Record<string, unknown>;
  /** An i18n key of its own when the catalogue's message is not the one to show (a feature not offering an action). */
  messageKey?: string;
  hint: string;
  hintParams: Record<string, unknown>;
  details?: { field?: string; message: string }[];
}

/** One queued action as the device sends it (schemas.ts actionsBody). */
export type MobileAction = MobileActionPayload;

/** A verdict as kept: the action judged (without its values), who sent it from where, and the outcome. */
export interface StoredVerdict extends Omit<MobileAction, 'fields' | 'comment'> {
  id: string;
  userId: string;
  deviceId: string;
  judgedAt: string;
  status: 'applied' | 'rejected';
  record?: { id: string; state: string | null };
  error?: StoredError;
}

/** The hint for each refusal: what the user does about it (schemas/i18n mobile.hint.*). */
const HINTS: Partial<Record<ErrorCode, string>> = {
  TRANSITION_NOT_ALLOWED: 'state', TRANSITION_CONFLICT: 'state', OPERATION_NOT_DRAFT: 'state', RECORD_NOT_AVAILABLE: 'state',
  FORBIDDEN: 'access', FORBIDDEN_ANY: 'access',
  STOCK_INSUFFICIENT: 'stock',
  RECORD_NOT_FOUND: 'notFound', VALUE_NOT_FOUND: 'notFound',
  DUPLICATE_KEY: 'taken', VALUE_TAKEN: 'taken',
  DEPOSIT_OUTSIDE_WAREHOUSE: 'warehouse', WAREHOUSE_NOT_YOURS: 'warehouse',
  TRANSITION_GUARD_FAILED: 'refused', TRANSITION_REFUSED: 'refused', NOT_REGISTERED: 'refused', WORKFLOW_NO_DRAFTS: 'refused',
};

/** The hint key of a refusal (mobile.hint.*): a wrong value is `values`, anything else not listed `other`. */
export function hintOf(code: ErrorCode): string {
  const named = HINTS[code];
  if (named) return `mobile.hint.${named}`;
  const values = code.startsWith('FORMAT_') || ['VALIDATION_FAILED', 'INVALID_REQUEST', 'TRANSITION_FIELD_REQUIRED', 'QUANTITY_NOT_POSITIVE', 'UNIT_MISMATCH', 'UNKNOWN_BATCH'].includes(code);
  return `mobile.hint.${values ? 'values' : 'other'}`;
}

const plural = new Map<Lang, Intl.PluralRules>();

/** An i18n text in `lang` (English when the language lacks it), written with `params`; a counting key by `count`. */
export function text(reg: Registry, lang: Lang, key: string, params: Record<string, unknown>): string | undefined {
  const bundle = (l: Lang) => reg.i18n[l] ?? {};
  let rules = plural.get(lang);
  if (!rules) plural.set(lang, (rules = new Intl.PluralRules(lang)));
  const counted = params.count === undefined ? undefined : `${key}_${rules.select(Number(params.count))}`;
  const template = [lang, 'en' as Lang].flatMap((l) => [counted && bundle(l)[counted], bundle(l)[`${key}_other`], bundle(l)[key]]).find((t) => typeof t === 'string');
  return template === undefined ? undefined : interpolate(template.replace(/\{\{(\w+)\}\}/g, '{$1}'), params);
}

const isLocalText = (v: unknown): v is LocalText => !!v && typeof v === 'object' && typeof (v as { en?: unknown }).en === 'string';

/** Values as a message shows them in `lang`: a label kept in every language (a feature's, an entity's) in that one. */
function inLang(params: Record<string, unknown>, lang: Lang): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, isLocalText(v) ? localize(v, lang) : v]));
}

/** A verdict as the API answers it, its message and hint in `lang`. */
export function presentVerdict(reg: Registry, v: StoredVerdict, lang: Lang): Record<string, unknown> {
  if (v.status === 'applied') return { seq: v.seq, status: v.status, record: v.record };
  const e = v.error!;
  const params = inLang(e.params, lang);
  const message = text(reg, lang, e.messageKey ?? ERRORS[e.code].key, params) ?? formatError(e.code, inLang(e.params, 'en'));
  return {
    seq: v.seq, status: v.status, ...(v.record ? { record: v.record } : {}),
    error: { code: e.code, message, hint: text(reg, lang, e.hint, inLang(e.hintParams, lang)) ?? '', ...(e.details?.length ? { details: e.details } : {}) },
  };
}
