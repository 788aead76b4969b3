/**
 * Totals of vitest JSON reports, printed as the plain closing line CI's reader knows
 * ("N passed, N failed, N skipped" alone on a line): vitest's own closing lines are not among
 * the runners it reads, so without this a green run counted as one that ran no test.
 */
import { existsSync, readFileSync } from 'node:fs';

interface VitestJson { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number }

export interface Totals { passed: number; failed: number; skipped: number; missing: string[] }

export function readTotals(files: string[]): Totals {
  const totals: Totals = { passed: 0, failed: 0, skipped: 0, missing: [] };
  for (const file of files) {
    if (!existsSync(file)) { totals.missing.push(file); continue; }
    const r = JSON.parse(readFileSync(file, 'utf8')) as VitestJson;
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
  }
  return totals;
}

export function closingLine(label: string, t: Totals): string {
  return `${label}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}
