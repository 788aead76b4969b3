import type { TFunction } from 'i18next';
import { ERRORS } from '../../../engine/src/index';
import { ApiRequestError } from './errors';

type CatalogueEntry = { key: string; template: string };

/** The catalogue entry of a server error code, if the engine knows it. */
export function catalogueEntry(code: string): CatalogueEntry | undefined {
  return (ERRORS as Record<string, CatalogueEntry | undefined>)[code];
}

/**
 * A server error in the interface language: catalogue messages without values are
 * translated by their key; messages with values, and unknown errors, stay as the server
 * wrote them (the values are not in the answer).
 */
export function errorText(e: unknown, t: TFunction): string {
  if (!(e instanceof ApiRequestError)) return e instanceof Error ? e.message : String(e);
  const entry = catalogueEntry(e.code);
  if (!entry || entry.template.includes('{')) return e.message;
  return t(entry.key, { defaultValue: e.message });
}
