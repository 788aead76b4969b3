import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeploymentDef } from '../../engine/src/index';
import { copyDefinitions } from '../../definitions/read';

/**
 * A copy of the project's definitions with the deployment's frame settings pointed at the
 * test features origin (the server reads definitions and web/dist under APP_ROOT). The web
 * build is linked, not copied.
 */
export function makeAppRoot(root: string, patch: (deployment: DeploymentDef) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'tm-e2e-root-'));
  copyDefinitions(root, dir);
  symlinkSync(join(root, 'web'), join(dir, 'web'), 'dir');
  const file = join(dir, 'schemas', 'deployment.json');
  const deployment = JSON.parse(readFileSync(file, 'utf8')) as DeploymentDef;
  patch(deployment);
  writeFileSync(file, JSON.stringify(deployment, null, 2));
  return dir;
}
