/** An import's messages in the user's language, from their code and values. */
import { localize, placeholders, templateFor, type FieldDef, type Lang } from '../../../engine/src/index';
import { catalogueEntry } from '../api/errorText';
import { fieldOfPath } from './columns';
import type { CodedMessage } from './logic';

export type Translate = (key: string, options: Record<string, unknown>) => string;

/**
 * English is shown word for word as the server wrote it (SPEC §5). Another language gets the
 * catalogue translation of the code with the message's values, the field's label in that
 * language; a code the catalogue lacks, or values that do not fill its template, keep the
 * server's text.
 */
export function messageText(m: CodedMessage & { field?: string }, lang: Lang, t: Translate, fields: readonly FieldDef[] = []): string {
  if (lang === 'en') return m.message;
  const entry = catalogueEntry(m.code);
  if (!entry) return m.message;
  const params: Record<string, unknown> = { ...m.params };
  if (placeholders(templateFor(entry.template)).some((name) => params[name] === undefined || params[name] === null)) return m.message;
  const field = m.field ? fieldOfPath(fields, m.field) : undefined;
  if (field && params.label === localize(field.label, 'en')) params.label = localize(field.label, lang);
  return t(entry.key, { ...params, defaultValue: m.message });
}
