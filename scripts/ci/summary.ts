/** `tsx scripts/ci/summary.ts <report.json>…`: the closing line of a CI run over every vitest suite it ran. */
import { closingLine, readTotals } from './vitestTotals';

const totals = readTotals(process.argv.slice(2));
for (const file of totals.missing) console.log(`no results: ${file}`);
console.log(closingLine('tests', totals));
process.exit(totals.failed > 0 || totals.missing.length > 0 || totals.passed === 0 ? 1 : 0);
