import { describe, expect, it } from 'vitest';
import { realRegistry } from '../testing/harness';
import type { StoredDoc } from '../store/types';
import { newJob } from './jobs';
import { buildTransaction, type PassData } from './transaction';

const reg = realRegistry();
const AT = '2026-06-01T10:00:00.000Z';

describe('the transaction a job sends', () => {
  it('takes a line role the workflow reads from the record ($record.<path>) for every line: an IBC batch preparation fills each container from its source lot', () => {
    const wf = reg.workflows.ibc_batch_preparation;
    expect(wf.lines?.material).toBe('$record.sourceMaterial');
    const record = {
      id: 'prep-1', sourceMaterial: 'mat-1', sourceBatch: 'LOT-7', uom: 'l', preparedDate: '2026-05-30',
      containers: [{ ibc: 'ibc-1', quantity: 900 }, { ibc: 'ibc-2', quantity: 850 }],
    } as unknown as StoredDoc;
    const job = newJob(reg, wf, 'prep-1', record, 'confirm', AT, '2026-06-04T10:00:00.000Z');
    const data: PassData = { records: new Map(), gtins: new Map([['mat-1', '07790000000011']]), glns: new Map() };
    expect(buildTransaction(reg, job, record, data).lines).toEqual([
      { gtin: '07790000000011', authorityCode: 'mat-1', lot: 'LOT-7', quantity: 900 },
      { gtin: '07790000000011', authorityCode: 'mat-1', lot: 'LOT-7', quantity: 850 },
    ]);
  });
});
