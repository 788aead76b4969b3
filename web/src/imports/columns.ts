/** The column mapping of an import as the screen shows it: each header, the field it fills, and what was left out. */
import { localize, type FieldDef, type Lang } from '../../../engine/src/index';
import type { ImportJob } from './logic';

/** A field of a dotted path (`extensions.x.list.1.sub`: numbers are rows of a list and skipped), or undefined. */
export function fieldOfPath(fields: readonly FieldDef[], path: string): FieldDef | undefined {
  let list: readonly FieldDef[] | undefined = fields;
  let found: FieldDef | undefined;
  for (const part of path.split('.')) {
    if (/^\d+$/.test(part)) continue;
    found = list?.find((f) => f.id === part);
    if (!found) return undefined;
    list = found.fields;
  }
  return found;
}

/**
 * The labels of a path in a language, `>` between levels, as the template's label headers
 * read: `Agrochemical product > Active ingredients 1 > Active ingredient`. The `extensions`
 * wrapper is storage and not named; a list row's number follows the list's label. A path
 * that names no field stays as it is.
 */
export function labelChain(fields: readonly FieldDef[], path: string, lang: Lang): string {
  const labels: string[] = [];
  let list: readonly FieldDef[] | undefined = fields;
  for (const part of path.split('.')) {
    if (/^\d+$/.test(part) && labels.length > 0) {
      labels[labels.length - 1] += ` ${part}`;
      continue;
    }
    const f: FieldDef | undefined = list?.find((x) => x.id === part);
    if (!f) return path;
    if (!(f.id === 'extensions' && list === fields)) labels.push(localize(f.label, lang));
    list = f.fields;
  }
  return labels.join(' > ');
}

/**
 * The label chain of a message's field (list rows 0-based, as the engine reports them), rows
 * numbered from 1 as in the file's headers; empty when the path names no field.
 */
export function fieldLabel(fields: readonly FieldDef[], field: string, lang: Lang): string {
  if (!fieldOfPath(fields, field)) return '';
  return labelChain(fields, field.replace(/\.(\d+)(?=\.|$)/g, (_, n: string) => `.${Number(n) + 1}`), lang);
}

export interface MappedColumnView { header: string; path: string; label: string }

export interface ColumnMapping {
  mapped: MappedColumnView[];
  /** Headers that name no field of the entity: not imported. */
  unknown: string[];
  /** Headers read and left out on purpose (`id`: records are matched by their import keys). */
  ignored: string[];
}

export function columnMapping(job: Pick<ImportJob, 'columns' | 'unknownColumns' | 'ignoredColumns'>, fields: readonly FieldDef[], lang: Lang): ColumnMapping {
  return {
    mapped: (job.columns ?? []).map((c) => ({ header: c.header, path: c.path, label: labelChain(fields, c.path, lang) })),
    unknown: job.unknownColumns ?? [],
    ignored: job.ignoredColumns ?? [],
  };
}
