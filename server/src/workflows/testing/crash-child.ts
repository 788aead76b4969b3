/**
 * Child process for crash.test.ts: a real server over DATA_DIR (or MONGODB_URI) with the test
 * shipment workflow. On a fresh store it seeds what shipments need; every start it prints
 * "SEED <json>" and "TOKEN <bearer of a superadmin>" before "listening on".
 */
import { buildApp } from '../../app';
import { prepareStore } from '../../boot';
import { Sessions } from '../../auth/sessions';
import { openStore } from '../../store/index';
import { BALANCES } from '../../ledger/ledger';
import { operationRoutes } from '../routes';
import { seedShipping, shipmentRegistry } from './fixture';

const registry = shipmentRegistry();
const store = await openStore({ dataDir: process.env.DATA_DIR!, mongodbUri: process.env.MONGODB_URI || undefined });
await prepareStore(registry, store);
await store.ensureCollection({ name: 'crash_seed', uniqueKeys: [], indexes: [] });
let [seed] = await store.find('crash_seed', {});
if (!seed) {
  const s = await seedShipping(store);
  await store.insert(BALANCES, { id: `${s.material}|${s.lot}|${s.from}`, material: s.material, batch: s.lot, deposit: s.from, quantity: Number(process.env.CRASH_STOCK ?? 1000), unit: s.uom });
  seed = await store.insert('crash_seed', s as never);
}
const user = await store.insert('user', { email: `crash-${Date.now()}@test.local`, display_name: 'Crash', state: 1, access: [registry.access.superadmin], groups: [] });
const sessions = new Sessions(registry, store);
const { token } = await sessions.create(user.id);
const app = await buildApp({ registry, store, authenticator: sessions, plugins: [(a) => operationRoutes(a, { registry, store })] });
const url = await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`SEED ${JSON.stringify(seed)}`);
console.log(`TOKEN ${token}`);
console.log(`listening on ${url}`);
process.once('SIGTERM', () => { void app.close().then(() => store.close()).then(() => process.exit(0)); });
