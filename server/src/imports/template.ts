/**
 * The CSV template of an entity: one header per importable column (enabled extensions
 * included; lists of rows as indexed columns `path.1.sub`) and one example row showing the
 * shape of each value. References show a placeholder naming what to put there.
 */
import { FIELD_TYPES, localize, type FieldDef, type Lang, type Registry } from '../../../engine/src/index';
import { columnCatalogue } from './columns';
import { csvLine } from './errorFile';

export interface TemplateOptions {
  /** Field ids (default, stable for integrators) or label chains in a language. */
  headers?: 'ids' | 'labels';
  lang?: Lang;
}

function example(reg: Registry, f: FieldDef, lang: Lang): string {
  if (f.example !== undefined) return f.example;
  if (f.options?.length) return String((f.options.find((o) => !o.disabled) ?? f.options[0]).value);
  return FIELD_TYPES[f.type].example(f, { lang, keyOf: (entity) => reg.entities[entity]?.importKeys[0] ?? 'id' });
}

function exampleOf(reg: Registry, f: FieldDef, lang: Lang): string {
  if (!f.multiple || f.type === 'reference') return example(reg, f, lang);
  const one = example(reg, f, lang);
  return f.options?.length || f.type !== 'string' ? one : `${one}, ${localize(f.label, lang)} 2`;
}

export function templateCsv(reg: Registry, entity: string, options: TemplateOptions = {}): string {
  const lang = options.lang ?? 'en';
  const byLabel = options.headers === 'labels';
  const header: string[] = [];
  const row: string[] = [];
  for (const slot of columnCatalogue(reg, entity).slots) {
    if (slot.kind === 'value') {
      header.push(byLabel ? slot.chain[lang] : slot.path);
      row.push(exampleOf(reg, slot.field, lang));
      continue;
    }
    for (const sub of slot.subs ?? []) {
      header.push(byLabel ? `${slot.chain[lang]} 1 > ${sub.chain[lang]}` : `${slot.path}.1.${sub.sub}`);
      row.push(exampleOf(reg, sub.field, lang));
    }
  }
  return `\ufeff${csvLine(header, ',')}${csvLine(row, ',')}`;
}
