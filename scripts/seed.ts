/** `npm run seed -- --scale N`: fills the configured store (DATA_DIR or MONGODB_URI) with demo data. */
import { parseArgs } from 'node:util';
import { readConfig } from '../server/src/config';
import { requireDefinitions } from '../definitions/read';
import { openStore } from '../server/src/store/index';
import { ensureAdmin, prepareStore } from '../server/src/boot';
import { DEMO_PASSWORD, seedDemo } from './seed/seed';

const { values } = parseArgs({ options: { scale: { type: 'string', default: '1' } } });
const scale = Number(values.scale);
if (!Number.isInteger(scale) || scale < 1 || scale > 100_000) {
  console.error('--scale takes a whole number from 1 to 100000');
  process.exit(2);
}
const config = readConfig();
const registry = requireDefinitions(config.root);
const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri });
await prepareStore(registry, store);
await ensureAdmin(registry, store, config.adminEmail, config.adminPassword);
const t0 = Date.now();
const result = await seedDemo(registry, store, scale);
await store.close();
if (!result.seeded) console.log('the store already holds companies: nothing seeded');
else {
  console.log(`seeded ${result.records} records at scale ${scale} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  for (const u of result.users) console.log(`  ${u.role}: ${u.email} / ${DEMO_PASSWORD}`);
}
