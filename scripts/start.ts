/**
 * `npm start`: builds the web app when its sources are newer than the build, starts the
 * server on its embedded store, seeds demo data into an empty store, and prints the URL and
 * the demo sign-ins.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readConfig } from '../server/src/config';
import { start } from '../server/src/main';
import { DEMO_PASSWORD, seedDemo, type DemoUser } from './seed/seed';

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

const root = process.cwd();
const viteConfig = join(root, 'web', 'vite.config.ts');
if (existsSync(viteConfig)) {
  const dist = join(root, 'web', 'dist', 'index.html');
  if (!existsSync(dist) || statSync(dist).mtimeMs < Math.max(newest(join(root, 'web', 'src')), newest(join(root, 'engine', 'src')))) {
    console.log('building the web app…');
    execSync('npx vite build --config web/vite.config.ts --logLevel warn', { stdio: 'inherit' });
  }
}

const config = readConfig();
let users: DemoUser[] = [];
const { url, stop } = await start(process.env, {
  beforeListen: async ({ registry, store }) => {
    const result = await seedDemo(registry, store, 1);
    if (result.seeded) console.log(`seeded ${result.records} demo records into ${config.mongodbUri ? 'MongoDB' : config.dataDir}`);
    users = result.users;
  },
});
console.log(`\nTraceability platform running at ${url}`);
console.log(`  API docs: ${url}/api/docs`);
console.log(`  sign in as superadmin: ${config.adminEmail} / ${process.env.ADMIN_PASSWORD ? '(ADMIN_PASSWORD)' : config.adminPassword}`);
for (const u of users) console.log(`  ${u.role}: ${u.email} / ${DEMO_PASSWORD}`);
if (users.length === 0) console.log(`  other demo users (if seeded earlier): producer@, distributor@, carrier@, warehouse@demo.local / ${DEMO_PASSWORD}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => { void stop().then(() => process.exit(0)); });
