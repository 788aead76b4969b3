import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';

const A = 'extensions.agrochemicalMaterial';
export const MATERIAL_HEADER = [
  'name', 'is_traceable', 'raw', 'recycled', 'serialized', 'critical', 'state',
  `${A}.product_id`, `${A}.product_code_id`, `${A}.senasa_name`, `${A}.reg_num`, `${A}.erp_id`,
  `${A}.company_id`, `${A}.material_type`, `${A}.gtin`, `${A}.plant_origin`,
];

/** Row i of a valid material file (references company C000001 and division DIV-001). */
export function materialRow(i: number, salt = ''): string {
  const n = String(i).padStart(7, '0');
  return `Material ${n}${salt},yes,no,no,no,no,1,P${n},PC${n},SENASA ${n},REG-${n},M${n},C000001,formulated_product,0779${n}00,DIV-001\n`;
}

/** Writes a material CSV of n rows (gzip-compressed when the path ends in .gz), streaming. */
export async function writeMaterialCsv(path: string, n: number, salt = ''): Promise<void> {
  const file = createWriteStream(path);
  const gz = path.endsWith('.gz') ? createGzip({ level: 6 }) : undefined;
  if (gz) gz.pipe(file);
  const out: Writable = gz ?? file;
  let buf = `${MATERIAL_HEADER.join(',')}\n`;
  for (let i = 1; i <= n; i++) {
    buf += materialRow(i, salt);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(file, 'close');
}
