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

/**
 * Builds web/dist with Vite when it is missing or older than the web or engine sources: the
 * desktop app, then the mobile app into web/dist/m (the desktop build empties web/dist, so
 * both are built whenever either is stale).
 */
export function ensureWebBuild(root: string): void {
  const built = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  const index = Math.min(built(join(root, 'web', 'dist', 'index.html')), built(join(root, 'web', 'dist', 'm', 'index.html')));
  const sources = Math.max(
    newest(join(root, 'web', 'src')), newest(join(root, 'engine', 'src')), newest(join(root, 'web', 'mobile')),
    statSync(join(root, 'web', 'index.html')).mtimeMs, statSync(join(root, 'web', 'vite.config.ts')).mtimeMs,
  );
  if (index >= sources) return;
  console.log('building the web app (vite build)…');
  execSync('npx vite build --config web/vite.config.ts --logLevel warn', { cwd: root, stdio: 'inherit' });
  execSync('npx vite build --config web/mobile/vite.config.ts --logLevel warn', { cwd: root, stdio: 'inherit' });
}
