import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { freePort } from '../../server/src/testing/process';

export interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon and keeps the figures that matter. */
export async function load(label: string, opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: 100, duration: 20, ...opts });
  const f = { label, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
  console.log(`${label.padEnd(34)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms   errors ${f.errors}   non-2xx ${f.non2xx}`);
  return f;
}

/** Starts a script in a child process so the server has a core to itself; resolves when it listens. */
export async function startProcess(script: string, env: Record<string, string>, nodeArgs: string[] = [], port?: number): Promise<{ url: string; child: ChildProcess; rss: () => number }> {
  port ??= await freePort();
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], { env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => { out += d; if (out.includes('listening on')) resolve(); });
    child.once('exit', (c) => reject(new Error(`${script} exited with ${c}: ${out}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, rss: () => 0 };
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); });
}

/** The old-space cap (MB) `npm start` gives the server (package.json's start script), or undefined without one. */
export function startHeapMb(): string | undefined {
  return /--max-old-space-size=(\d+)/.exec((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start)?.[1];
}

/** Signs in over the API; the session's bearer token. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return (await res.json() as { token: string }).token;
}

/** `--prof=DIR` on a bench's command line: node flags that make a server write a CPU profile there when it stops. */
export function profileArgs(argv: readonly string[] = process.argv): string[] {
  const dir = argv.find((a) => a.startsWith('--prof='))?.slice(7);
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/**
 * Waits until a request that reaches the store (`url`, e.g. a get by id) is answered promptly
 * again: a store that fell behind under the last load (mongo-java-server scanning for searches)
 * would otherwise still be working off that backlog during the next measurement.
 */
export async function drained(url: string, headers: Record<string, string> = {}, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const t = performance.now();
    const ok = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) }).then((r) => r.ok, () => false);
    if (ok && performance.now() - t < 100) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** papaparse's time to read a CSV file, streamed as the import reads it: the yardstick of the import benches. */
export function parseOnly(path: string): Promise<{ ms: number; rows: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let rows = 0;
    Papa.parse(createReadStream(path, { encoding: 'utf8' }) as never, {
      chunk: (r: Papa.ParseResult<string[]>) => { rows += r.data.length; },
      complete: () => resolve({ ms: performance.now() - t, rows }),
      error: reject,
    } as never);
  });
}

/**
 * A process's CPU time (ms, every thread's) and bytes it read from the disk, from /proc: beside
 * the wall clock they show whether an export waited for the processor or for the disk (on a VM
 * that reclaims page cache the store is read from the disk again, and wall times move by half).
 */
export function procUse(pid: number | 'self'): { cpuMs: number; mainCpuMs: number; diskMb: number } {
  const io = /read_bytes:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  // The main thread's task has the process's id: its share tells the server's own work (requests,
  // timers, alert passes) from the worker threads' (an export's, the collector's helpers).
  const main = pid === 'self' ? process.pid : pid;
  return { cpuMs: statCpuMs(`/proc/${pid}/stat`), mainCpuMs: statCpuMs(`/proc/${main}/task/${main}/stat`), diskMb: io ? Number(io[1]) / 1e6 : NaN };
}

/** utime + stime of a /proc stat file, fields 14 and 15 in clock ticks (100 a second), after the command's parenthesis. */
function statCpuMs(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits until a process uses under a tenth of a core over a second (at most `maxMs`): a server
 * just started catches up on work of its own (the alert passes over every open sync job), which a
 * measurement of one request's cost should not carry. Returns the wait and the CPU it used.
 */
export async function settled(pid: number, maxMs = 60_000): Promise<{ ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const c0 = procUse(pid).cpuMs;
  for (let last = c0; performance.now() - t0 < maxMs;) {
    await new Promise((ok) => setTimeout(ok, 1000));
    const now = procUse(pid).cpuMs;
    if (now - last < 100) break;
    last = now;
  }
  return { ms: performance.now() - t0, cpuMs: procUse(pid).cpuMs - c0 };
}
