import { LANGS, type Lang } from '../../../engine/src/index';

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

/**
 * SPEC 9: the interface language is the one chosen (profile or language menu), else the
 * deployment default, else the first part of the browser language when offered, else English.
 */
export function initialLanguage(o: {
  chosen?: string | null;
  deploymentDefault?: string | null;
  browser?: readonly string[];
  offered: readonly string[];
}): Lang {
  const offered = (l: string | null | undefined): l is Lang => isLang(l) && o.offered.includes(l);
  if (offered(o.chosen)) return o.chosen;
  if (offered(o.deploymentDefault)) return o.deploymentDefault;
  for (const b of o.browser ?? []) {
    const first = b.split('-')[0].toLowerCase();
    if (offered(first)) return first;
  }
  return 'en';
}
