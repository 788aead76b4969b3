/**
 * Worker threads running the server's own TypeScript modules (report exports and pages, the
 * ledger's verify, CSV validation, search readers).
 *
 * The sources run through tsx (npm start, tests), and a worker does not inherit its loader. A
 * thread used to boot by importing its module through tsx's API: a loader thread of its own, then
 * each of its hundred modules looked up in tsx's cache, compiled and linked one by one. That took
 * 0.5-0.9 s (0.6-0.75 s of CPU) and 54-58 MB before an export wrote its first row. So the server
 * bundles its thread modules once when it starts, with esbuild (what tsx compiles with), into a
 * file each plus the chunks they share, kept under node_modules/.cache; a thread then loads one
 * file, with no loader: about 0.2 s, 0.18 s of CPU, 22 MB (docs/operations.md). Packages stay outside the bundle (node_modules is beside
 * it) and each module's `import.meta.url` stays its source file's, so the paths a module finds
 * from its own place are the same in either way.
 *
 * Until the bundle is ready, or where it cannot be made (no esbuild, a read-only checkout), a
 * thread boots through tsx as before: the bundle only makes threads start faster.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');
const SRC = fileURLToPath(new URL('.', import.meta.url));
const CACHE = fileURLToPath(new URL('../../node_modules/.cache/tracemesh-threads/', import.meta.url));
/**
 * A bundle no server has used for this long is removed. A server touches its own each time it
 * starts a thread, and starts through tsx if its bundle is gone all the same.
 */
const KEEP_UNUSED_MS = 7 * 24 * 3600_000;

/**
 * The parent's options for a thread started from its bundle, less tsx's preload (`--import tsx`:
 * it would load tsx in the thread for nothing, 40-70 ms) and the V8 heap flags a worker refuses
 * when named (its heap is its resourceLimits). Undefined once a worker refused them anyway:
 * threads then inherit the parent's options, as they did.
 */
let bundleArgv: string[] | undefined = process.execArgv.filter((a, i, all) =>
  !(a === '--import' && all[i + 1] === 'tsx') && !(a === 'tsx' && all[i - 1] === '--import') && !/^--(import|require)=tsx$/.test(a) && !/^--max-(old|semi)-space-size/.test(a));

/** Source file → its bundled file, once prepareThreads made them, and their directory. */
let bundled: Map<string, string> | undefined;
let bundleDir = '';
const modules = new Set<string>();

/** Names a module a thread runs (a file under server/src), so prepareThreads bundles it; returns it. */
export function threadModule(module: URL): URL {
  modules.add(fileURLToPath(module));
  return module;
}

/** Starts `module` (named by threadModule) on a worker thread: from its bundle when there is one, else through tsx. */
export function startThread(module: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const file = bundled?.get(fileURLToPath(module));
  if (file && existsSync(file)) {
    touch(bundleDir);
    if (bundleArgv) {
      try {
        return new Worker(file, { execArgv: bundleArgv, ...options });
      } catch (e) {
        if ((e as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
        bundleArgv = undefined;
      }
    }
    return new Worker(file, options);
  }
  const url = JSON.stringify(module.href);
  return new Worker(`import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${url}, ${url}))`, { ...options, eval: true });
}

/** Whether `module` starts from its bundle. */
export function bundledThread(module: URL): boolean {
  return bundled?.has(fileURLToPath(module)) ?? false;
}

/**
 * Bundles every module threadModule named (those of the modules imported so far). Returns the
 * reason when it could not, and threads keep booting through tsx. `cacheDir`: a test's.
 */
export async function prepareThreads(cacheDir = CACHE): Promise<string | undefined> {
  const entries = [...modules].sort();
  try {
    const esbuild = await import('esbuild');
    // esbuild's service process is not needed after the build (about 20 MB held otherwise).
    const out = await esbuild.build({
      entryPoints: entries,
      outbase: SRC,
      outdir: '/bundle',
      entryNames: '[dir]/[name]',
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      // Chunks shared by the entries, and a dynamic import as a chunk of its own, loaded when run:
      // the MongoDB driver stays out of a thread on the embedded store.
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      write: false,
      logLevel: 'silent',
      plugins: [{
        name: 'own-import-meta-url',
        setup(b) {
          // A module finds its neighbours from import.meta.url (a worker's file, a definition):
          // its source file's URL, not the bundle's.
          b.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      }],
    }).finally(() => esbuild.stop());
    const hash = createHash('sha256');
    for (const f of out.outputFiles) hash.update(f.path).update(f.contents);
    const dir = join(cacheDir, hash.digest('hex').slice(0, 16));
    const files = out.outputFiles.map((f) => ({ file: join(dir, relative('/bundle', f.path)), contents: f.contents }));
    // A directory of that name holds these files unless something cut them short (a crash while
    // they were written, a hand): then it is made again.
    if (existsSync(dir) && !files.every((f) => sameContents(f.file, f.contents))) rmSync(dir, { recursive: true, force: true });
    if (!existsSync(dir)) {
      // Written aside and renamed: another server (a test process) may write the same bundle at once.
      const aside = `${dir}.${process.pid}.${Date.now()}`;
      for (const f of files) {
        const file = join(aside, relative(dir, f.file));
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, f.contents);
      }
      try {
        renameSync(aside, dir);
      } catch (e) {
        rmSync(aside, { recursive: true, force: true });
        if (!existsSync(dir)) throw e;
      }
    }
    touch(dir);
    pruneUnused(cacheDir, dir);
    bundleDir = dir;
    bundled = new Map(entries.map((e) => [e, join(dir, relative(SRC, e).replace(/\.ts$/, '.js'))]));
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

function sameContents(file: string, contents: Uint8Array): boolean {
  try {
    return Buffer.compare(readFileSync(file), contents) === 0;
  } catch {
    return false;
  }
}

/** Marks a bundle as used now (its directory's times), so no other server prunes it. */
function touch(dir: string): void {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    // Gone: the thread starts through tsx next time.
  }
}

function pruneUnused(cacheDir: string, current: string): void {
  for (const name of readdirSync(cacheDir)) {
    const dir = join(cacheDir, name);
    if (dir === current) continue;
    try {
      if (Date.now() - statSync(dir).mtimeMs > KEEP_UNUSED_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another server meanwhile.
    }
  }
}
