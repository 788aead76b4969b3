import type { TFunction } from 'i18next';
import { ERRORS, placeholders, templateFor, type Template } from '../../../engine/src/index';
import { ApiRequestError } from './errors';

type CatalogueEntry = { key: string; template: Template };

/** The catalogue entry of a server error code, if the engine knows it. */
export function catalogueEntry(code: string): CatalogueEntry | undefined {
  return (ERRORS as Record<string, CatalogueEntry | undefined>)[code];
}

/**
 * A server error in the interface language: a catalogue message is translated by its key,
 * with the values the server sent (`params`); one whose values did not come, and an unknown
 * error, stays as the server wrote it.
 */
export function errorText(e: unknown, t: TFunction): string {
  if (!(e instanceof ApiRequestError)) return e instanceof Error ? e.message : String(e);
  const entry = catalogueEntry(e.code);
  if (!entry) return e.message;
  if (placeholders(templateFor(entry.template)).some((name) => e.params[name] === undefined || e.params[name] === null)) return e.message;
  return t(entry.key, { ...e.params, defaultValue: e.message });
}
