/**
 * Format-validation throughput of the engine against the bare compiled ajv validator of the
 * same entity's JSON Schema, on 100,000 generated company and material records (about a
 * fifth of them invalid). Run: npx tsx scripts/bench/validate.ts
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { compileForm, formOf, toJsonSchema } from '../../engine/src/index';
import { requireDefinitions } from '../../definitions/read';

const reg = requireDefinitions(process.cwd());
const N = 100_000;

function company(i: number): Record<string, unknown> {
  const bad = i % 5 === 0;
  return {
    company_name: bad && i % 10 === 0 ? '' : `Agro Company ${i}`,
    email: bad ? `broken-${i}` : `contact${i}@agro${i % 97}.com.ar`,
    phone_number: ['+54 11 4000 0000', `+54 351 ${String(i).padStart(7, '0')}`],
    prefix: 'AR',
    address: { city: 'Rosario', post_code: '2000', country: 'Argentina', country_code: 'AR', location: { lat: -32.95, lng: -60.66 } },
    state: 1,
    extensions: { companyInfo: { cuit: '30-71234567-1', company_type: 'distributor', state: 1 } },
  };
}

function material(i: number): Record<string, unknown> {
  const bad = i % 5 === 1;
  return {
    name: `Glyphosate 48% ${i}`,
    uom: `uom-${i % 7}`,
    is_traceable: bad ? 'sometimes' : true,
    raw: i % 2 === 0,
    recycled: false,
    serialized: true,
    critical: false,
    state: bad && i % 10 === 1 ? 7 : 1,
  };
}

const records = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? { entity: 'company', value: company(i) } : { entity: 'material', value: material(i) }));
const engine = { company: compileForm(formOf(reg, 'company')!), material: compileForm(formOf(reg, 'material')!) };
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const bare = { company: ajv.compile(toJsonSchema(formOf(reg, 'company')!)), material: ajv.compile(toJsonSchema(formOf(reg, 'material')!)) };

function time(label: string, fn: (r: (typeof records)[number]) => boolean): { ms: number; invalid: number } {
  for (let i = 0; i < 20_000; i++) fn(records[i]); // warm-up so both are measured compiled by V8
  let best = Infinity;
  let invalid = 0;
  for (let round = 0; round < 5; round++) {
    invalid = 0;
    const t0 = process.hrtime.bigint();
    for (const r of records) if (!fn(r)) invalid++;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(`${label.padEnd(8)} ${(N / (best / 1000)).toFixed(0).padStart(9)} records/s  (${best.toFixed(1)} ms for ${N}, ${invalid} invalid, best of 5)`);
  return { ms: best, invalid };
}

console.log(`format validation of ${N} records (company and material, one core)`);
const e = time('engine', (r) => engine[r.entity as 'company'](r.value).success);
const a = time('ajv', (r) => bare[r.entity as 'company'](r.value) as boolean);
console.log(`ratio engine/ajv time: ${(e.ms / a.ms).toFixed(2)}x (target: at most 3x; engine at least 200000 records/s)`);
