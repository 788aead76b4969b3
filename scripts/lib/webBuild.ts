import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** Builds web/dist with Vite when it is missing or older than the web or engine sources. */
export function ensureWebBuild(root: string): void {
  const index = join(root, 'web', 'dist', 'index.html');
  const sources = Math.max(
    newest(join(root, 'web', 'src')), newest(join(root, 'engine', 'src')),
    statSync(join(root, 'web', 'index.html')).mtimeMs, statSync(join(root, 'web', 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  console.log('building the web app (vite build)…');
  execSync('npx vite build --config web/vite.config.ts --logLevel warn', { cwd: root, stdio: 'inherit' });
}
