import { describe, expect, it } from 'vitest';
import {
  attachmentName, durationSeconds, errorLines, formatNumber, hasErrorFile, importableFor, isFinished, localTime,
  pageCount, pollDelay, statusSeverity, templatePath, uploadForm, type ImportJob, type ImportStatus, type RejectedRows,
} from './logic';
import { loadRegistry } from '../../../engine/src/index';
import { fixtureSources } from '../../../engine/src/testing/fixtures';

const job = (o: Partial<ImportJob>): ImportJob => ({
  id: 'J1', entity: 'material', fileName: 'm.csv', dryRun: true, mode: 'all-or-nothing', status: 'succeeded', phase: 'done',
  createdAt: '2026-01-01T10:00:00Z', finishedAt: '2026-01-01T10:00:41Z', progress: { phase: 'done', rowsDone: 5, rowsTotal: 5, exact: true, percent: 100 },
  counts: { insert: 4, update: 0, unchanged: 0, reject: 1 }, messages: [], error: null, errorFile: '/api/imports/J1/errors.csv', ...o,
});

describe('import screen logic', () => {
  it('offers only the importable event entities on the event screen, and only master data on the import screen', () => {
    const t = (en: string) => ({ en, es: en, fr: en });
    const entity = (name: string, kind: string, importable?: boolean) =>
      ({ name, kind, importable, label: t(name), pluralLabel: t(name), fields: [{ id: 'name', label: t('Name'), type: 'string' }] });
    const reg = loadRegistry(fixtureSources({
      'schemas/entities/object_events.json': entity('object_events', 'event'),
      'schemas/entities/lot.json': entity('lot', 'event', false),
      'schemas/entities/group.json': entity('group', 'system'),
    })).registry!;
    expect(importableFor(reg, '/data-import/event')).toEqual(['object_events']);
    expect(importableFor(reg, '/data-import/event/')).toEqual(['object_events']);
    expect(importableFor(reg, '/data-import/import')).toEqual(['company', 'material']);
    expect(importableFor(reg, undefined)).toEqual(['company', 'material']);
  });

  it('lists one line per rejected cell in row order, a row-level problem with an empty column', () => {
    const rows: RejectedRows = { data: [
      { row: 3, messages: [{ column: 'name', field: 'name', code: 'FORMAT_MANDATORY', message: 'Name : A value is mandatory.' }, { column: 'state', code: 'X', message: 'bad state' }] },
      { row: 9, messages: [{ column: '', code: 'IMPORT_RAGGED_ROW', message: 'The row has 6 cells; the header has 5' }] },
    ], total: 2, page: 1, pageSize: 50 };
    expect(errorLines(rows).map((l) => [l.row, l.column, l.message])).toEqual([
      [3, 'name', 'Name : A value is mandatory.'],
      [3, 'state', 'bad state'],
      [9, '', 'The row has 6 cells; the header has 5'],
    ]);
    expect(errorLines(undefined)).toEqual([]);
  });

  it('stops polling once a job is finished, asking quickly at first and then every second', () => {
    expect((['queued', 'running'] as ImportStatus[]).map(isFinished)).toEqual([false, false]);
    expect((['succeeded', 'failed', 'rolled_back'] as ImportStatus[]).map(isFinished)).toEqual([true, true, true]);
    expect([0, 1, 2, 3, 10].map(pollDelay)).toEqual([250, 500, 1000, 1000, 1000]);
  });

  it('offers the error file of a finished job with rejected rows only', () => {
    expect(hasErrorFile(job({}))).toBe(true);
    expect(hasErrorFile(job({ counts: { insert: 5, update: 0, unchanged: 0, reject: 0 } }))).toBe(false);
    expect(hasErrorFile(job({ status: 'running' }))).toBe(false);
    expect(hasErrorFile(job({ errorFile: null }))).toBe(false);
  });

  it('asks for the template in the user language, French reading English', () => {
    expect(templatePath('material', 'labels', 'es')).toBe('/api/imports/templates/material.csv?headers=labels&lang=es');
    expect(templatePath('company', 'ids', 'fr')).toBe('/api/imports/templates/company.csv?headers=ids&lang=fr');
    expect(templatePath('company', 'ids', 'de')).toBe('/api/imports/templates/company.csv?headers=ids&lang=en');
  });

  it('sends the fields before the file', () => {
    const form = uploadForm(new Blob(['a,b\n1,2\n']), 'x.csv', { entity: 'material', dryRun: true, mode: 'valid-only' });
    expect([...form.keys()]).toEqual(['entity', 'dryRun', 'mode', 'file']);
    expect(form.get('dryRun')).toBe('true');
    expect((form.get('file') as File).name).toBe('x.csv');
  });

  it('names a download as the server does, else by the fallback', () => {
    expect(attachmentName('attachment; filename="materials-errors.csv"', 'x.csv')).toBe('materials-errors.csv');
    expect(attachmentName(null, 'x.csv')).toBe('x.csv');
  });

  it('writes times, durations, counts and page counts for people', () => {
    expect(localTime('2026-03-31T14:30:05Z')).toMatch(/^2026-03-3[01] \d\d:\d\d:05$/);
    expect(localTime(null)).toBe('');
    expect(durationSeconds(job({}))).toBe(41);
    expect(durationSeconds(job({ startedAt: '2026-01-01T10:00:40.900Z', finishedAt: '2026-01-01T10:00:41Z' }))).toBe(1);
    expect(durationSeconds(job({ finishedAt: null }))).toBeUndefined();
    expect(formatNumber(100000, 'en')).toBe('100,000');
    expect(formatNumber(100000, 'es')).toBe('100.000');
    expect([pageCount(0, 50), pageCount(50, 50), pageCount(51, 50)]).toEqual([1, 1, 2]);
    expect((['succeeded', 'failed', 'rolled_back', 'running'] as ImportStatus[]).map(statusSeverity)).toEqual(['success', 'danger', 'warning', 'info']);
  });
});
