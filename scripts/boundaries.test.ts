import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `npm run boundaries` on a tree that breaks every rule: each break is named, and it fails. */
const repo = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'tm-boundaries-'));
const files: Record<string, string> = {
  'engine/src/pure.ts': "import { x } from '../../server/src/thing';\nexport const y = x;\n",
  'engine/src/host.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
  'engine/src/ui.ts': "import { App } from '../../web/src/App';\nexport const a = App;\n",
  'web/src/App.tsx': "import { x } from '../../server/src/thing';\nexport const App = () => <div>{x}</div>;\n",
  'web/src/boot.ts': "import { requireDefinitions } from '../../definitions/read';\nexport const d = requireDefinitions;\n",
  'server/src/thing.ts': "import { App } from '../../web/src/App';\nexport const x = String(App);\n",
  'definitions/read.ts': 'export const requireDefinitions = 1;\n',
};

function cruise(): { status: number | null; out: string } {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const r = spawnSync('depcruise', ['{definitions,engine,server,web}/**/*.{ts,tsx}', '--config', join(repo, '.dependency-cruiser.cjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(repo, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` },
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('boundaries (dependency-cruiser rules)', () => {
  it('fails on each forbidden import, from .ts and .tsx files alike', () => {
    const { status, out } = cruise();
    expect(status).not.toBe(0);
    expect(out).toContain('engine-stays-pure: engine/src/pure.ts → server/src/thing.ts');
    expect(out).toContain('engine-stays-pure: engine/src/ui.ts → web/src/App.tsx');
    expect(out).toContain('engine-without-node: engine/src/host.ts → fs');
    expect(out).toContain('web-not-server: web/src/App.tsx → server/src/thing.ts');
    expect(out).toContain('web-app-not-node: web/src/boot.ts → definitions/read.ts');
    expect(out).toContain('server-not-web: server/src/thing.ts → web/src/App.tsx');
  });
});
