/**
 * `npm start`: builds the web app when its sources are newer than the build, starts the
 * server on its embedded store, seeds demo data into an empty store, and prints the URL and
 * the demo sign-ins.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../server/src/config';
import { start } from '../server/src/main';
import { DEMO_PASSWORD, seedDemo, type DemoUser } from './seed/seed';
import { seedActivity } from './seed/activity';
import { ensureWebBuild } from './lib/webBuild';
import { startFakeAuthority } from '../server/src/sync/authority/fake';

const root = process.cwd();
if (existsSync(join(root, 'web', 'vite.config.ts'))) ensureWebBuild(root);

const config = readConfig();
const START_ACTIVITY_DAYS = 45;
let users: DemoUser[] = [];
// The demo declares to a local fake of the authority (its journal in the data directory, so a
// restart never declares twice) unless AUTHORITY_BASE_URL names a real one.
const env = { ...process.env };
const fake = env.AUTHORITY_BASE_URL ? undefined : await (async () => {
  const user = 'demo';
  const password = randomBytes(18).toString('base64url');
  if (!config.mongodbUri) mkdirSync(config.dataDir, { recursive: true });
  const authority = await startFakeAuthority({ user, password, ...(config.mongodbUri ? {} : { file: join(config.dataDir, 'fake-authority.jsonl') }) });
  Object.assign(env, { AUTHORITY_BASE_URL: authority.url, AUTHORITY_USER: user, AUTHORITY_PASSWORD: password });
  return authority;
})();
const { url, stop } = await start(env, {
  beforeListen: async ({ registry, store }) => {
    const result = await seedDemo(registry, store, 1);
    if (result.seeded) console.log(`seeded ${result.records} demo records into ${config.mongodbUri ? 'MongoDB' : config.dataDir}`);
    users = result.users;
    // A short stretch of operations, so no traceability screen starts empty (a year: npm run seed -- --activity 365).
    const played = await seedActivity(registry, store, START_ACTIVITY_DAYS);
    if (played) console.log(`played ${played.days} days of demo operations (${played.operations} operations)`);
  },
});
console.log(`\nTraceability platform running at ${url}`);
console.log(`  API docs: ${url}/api/docs`);
console.log(`  mobile app (phones, works offline): ${url}/m/`);
console.log(`  sign in as superadmin: ${config.adminEmail} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : config.adminPassword}`);
for (const u of users) console.log(`  ${u.role}: ${u.email} / ${DEMO_PASSWORD}`);
if (fake) console.log(`  declarations go to a local fake of the authority at ${fake.url} (set AUTHORITY_BASE_URL, AUTHORITY_USER and AUTHORITY_PASSWORD for the real one)`);
if (users.length === 0) console.log(`  other demo users (if seeded earlier): producer@, distributor@, carrier@, warehouse@, quality@demo.local / ${DEMO_PASSWORD}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => { void stop().then(() => fake?.stop()).then(() => process.exit(0)); });
