/**
 * `npm run seed -- --scale N [--activity DAYS]`: fills the configured store (DATA_DIR or
 * MONGODB_URI) with demo master data, then plays DAYS days of operations through the workflows.
 */
import { parseArgs } from 'node:util';
import { readConfig } from '../server/src/config';
import { requireDefinitions } from '../definitions/read';
import { openStore } from '../server/src/store/index';
import { ensureAdmin, prepareStore } from '../server/src/boot';
import { DEMO_PASSWORD, seedDemo } from './seed/seed';
import { seedActivity } from './seed/activity';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' }, activity: { type: 'string', default: '0' } } });
const scale = Number(values.scale);
if (!Number.isInteger(scale) || scale < 1 || scale > 100_000) {
  console.error('--scale takes a whole number from 1 to 100000');
  process.exit(2);
}
const activityDays = Number(values.activity);
if (!Number.isInteger(activityDays) || activityDays < 0 || activityDays > 3650) {
  console.error('--activity takes a number of days from 0 to 3650');
  process.exit(2);
}
const config = readConfig();
const registry = requireDefinitions(config.root);
const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri });
await prepareStore(registry, store);
await ensureAdmin(registry, store, config.adminEmail, config.adminPassword);
const t0 = Date.now();
const result = await seedDemo(registry, store, scale);
if (!result.seeded) console.log('the store already holds companies: nothing seeded');
else {
  console.log(`seeded ${result.records} records at scale ${scale} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const u of result.users) console.log(`  ${u.role}: ${u.email} / ${DEMO_PASSWORD}`);
}
if (activityDays > 0) {
  const t1 = Date.now();
  const played = await seedActivity(registry, store, activityDays);
  if (!played) console.log('the store already holds operations (or no superadmin): no activity played');
  else console.log(`played ${played.days} days of activity: ${played.operations} operations (${Object.entries(played.byWorkflow).map(([w, n]) => `${w} ${n}`).join(', ')}), ${played.transitions} transitions in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
}
await store.close();
