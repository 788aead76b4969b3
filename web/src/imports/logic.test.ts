import { describe, expect, it } from 'vitest';
import { cellErrors, importableFor, isFinished, templatePath, type ImportJob } from './logic';

describe('import screen logic', () => {
  it('offers events only on the event screen', () => {
    expect(importableFor('/data-import/event')).toEqual(['object_events', 'transformation_events']);
    expect(importableFor('/data-import/import')).toContain('material');
    expect(importableFor('/data-import/import')).not.toContain('object_events');
  });

  it('lists one line per rejected cell, row-level problems with an empty column', () => {
    const job = { errors: { data: [
      { row: 3, messages: [{ column: 'name', code: 'FORMAT_MANDATORY', message: 'Name : A value is mandatory.' }, { column: 'state', code: 'X', message: 'bad state' }] },
      { row: 9, messages: [{ column: '', code: 'IMPORT_RAGGED_ROW', message: 'The row has 6 cells; the header has 5' }] },
    ], total: 2, page: 1, pageSize: 50 } } as unknown as ImportJob;
    expect(cellErrors(job)).toEqual([
      { row: 3, column: 'name', message: 'Name : A value is mandatory.' },
      { row: 3, column: 'state', message: 'bad state' },
      { row: 9, column: '', message: 'The row has 6 cells; the header has 5' },
    ]);
  });

  it('knows when to stop polling and asks for the template in the user language', () => {
    expect(['queued', 'running'].map((s) => isFinished(s as ImportJob['status']))).toEqual([false, false]);
    expect(['succeeded', 'failed', 'rolled_back'].map((s) => isFinished(s as ImportJob['status']))).toEqual([true, true, true]);
    expect(templatePath('material', 'labels', 'es')).toBe('/api/imports/templates/material.csv?headers=labels&lang=es');
    expect(templatePath('company', 'ids', 'fr')).toBe('/api/imports/templates/company.csv?headers=ids&lang=en');
  });
});
