import { cpSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { loadRegistry, DefinitionError, type DefinitionSource, type Registry, type LoadResult } from '../engine/src/index';

const ROOTS = ['schemas', 'reports'];

/** Reads every definition file under schemas/ and reports/ (meta-schemas excluded). */
export function readDefinitionSources(root: string): DefinitionSource[] {
  const out: DefinitionSource[] = [];
  const visit = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const rel = relative(root, full).split(sep).join('/');
      if (rel === 'schemas/meta') continue;
      if (statSync(full).isDirectory()) visit(full);
      else if (name.endsWith('.json')) out.push({ path: rel, text: readFileSync(full, 'utf8') });
    }
  };
  for (const r of ROOTS) visit(join(root, r));
  return out;
}

/** Copies every definition directory (schemas/, reports/) of `from` into `to`: a configurator's copy to edit in a test. */
export function copyDefinitions(from: string, to: string): void {
  for (const r of ROOTS) if (existsSync(join(from, r))) cpSync(join(from, r), join(to, r), { recursive: true });
}

export function loadDefinitions(root: string): LoadResult {
  return loadRegistry(readDefinitionSources(root));
}

/** For the server: the registry, or a DefinitionError naming every problem (it refuses to start). */
export function requireDefinitions(root: string): Registry {
  const { registry, problems } = loadDefinitions(root);
  if (!registry) throw new DefinitionError(problems);
  return registry;
}
