import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem } from '../engine/src/index';
import { loadDefinitions } from '../definitions/read';
import { GENERATED_DIR, generateTypes } from './lib/types';

const root = process.cwd();
const { registry, problems } = loadDefinitions(root);
if (!registry) {
  for (const p of problems) console.error(formatProblem(p));
  process.exit(1);
}
const files = await generateTypes(registry);
const dir = join(root, GENERATED_DIR);
mkdirSync(dir, { recursive: true });
for (const old of readdirSync(dir)) if (!files.has(old)) rmSync(join(dir, old));
for (const [name, text] of files) writeFileSync(join(dir, name), text);
console.log(`generated ${files.size} files in ${GENERATED_DIR}`);
