import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem } from '../engine/src/index';
import { loadDefinitions } from '../definitions/read';
import { GENERATED_DIR, generateTypes } from './lib/types';

/** `npm run check`: every definition and cross-reference, then the freshness of generated types. */
const root = process.cwd();
const { registry, problems } = loadDefinitions(root);
for (const p of problems) console.error(formatProblem(p));
if (!registry) {
  console.error(`check: ${problems.length} problem(s) in definitions`);
  process.exit(1);
}

const stale: string[] = [];
const dir = join(root, GENERATED_DIR);
const files = await generateTypes(registry);
for (const [name, text] of files) {
  const path = join(dir, name);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(`${GENERATED_DIR}/${name}`);
}
if (existsSync(dir)) for (const name of readdirSync(dir)) if (!files.has(name)) stale.push(`${GENERATED_DIR}/${name} (no longer generated)`);
if (stale.length > 0) {
  for (const s of stale) console.error(`${s}: generated types are stale: run npm run gen`);
  process.exit(1);
}
const count = (o: object) => Object.keys(o).length;
console.log(`check: ok (${count(registry.entities)} entities, ${count(registry.extensions)} extensions, ${registry.features.features.length} features, ${count(registry.reports)} reports, ${count(registry.dashboards)} dashboards, ${count(registry.workflows)} workflows)`);
