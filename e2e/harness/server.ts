import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { waitForHttp } from './net';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
  /** The server's recent output, for failure reports. */
  output(): string;
}

/**
 * Starts the real server (`server/src/main.ts`) in its own process on 127.0.0.1:port and
 * waits until it answers; `env` adds DATA_DIR, APP_ROOT, SMTP_URL and the like.
 */
export async function startServer(root: string, port: number, env: Record<string, string>): Promise<RunningServer> {
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const child: ChildProcess = spawn(tsx, [join(root, 'server', 'src', 'main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const ready = waitForHttp(`${url}/api/config/public`, 90_000);
  const result = await Promise.race([ready.then(() => 'ready' as const), exited.then(() => 'exited' as const)]);
  if (result === 'exited') throw new Error(`the server exited before answering:\n${out}`);
  return {
    url,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
