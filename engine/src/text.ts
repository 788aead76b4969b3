/** A text shown to people, per language; English is the fallback for a missing language. */
export type Lang = 'en' | 'es' | 'fr';
export interface LocalText {
  en: string;
  es: string;
  fr?: string;
}

export const LANGS: readonly Lang[] = ['en', 'es', 'fr'];

export function localize(text: LocalText | string | undefined, lang: Lang = 'en'): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[lang] ?? text.en;
}

/** Replaces `{name}` with values; unknown names stay visible so a missing value is noticed. */
/** The names a template fills in (`{name}` or `{{name}}`), in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{\{?(\w+)\}?\}/g)].map((m) => m[1]);
}

export function interpolate(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{\{?(\w+)\}?\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}
