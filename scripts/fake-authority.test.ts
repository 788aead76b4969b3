import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createHttpAuthority } from '../server/src/sync/authority/http';
import { FAKE_PASSWORD, FAKE_USER, sampleDeclaration } from '../server/src/sync/authority/testing';
import { AuthorityUnavailable } from '../server/src/sync/authority/types';

/** `npm run fake-authority` in its own process, driven only over HTTP (its /_control routes), as a bench or a fault test would. */
describe('npm run fake-authority', () => {
  it('prints its URL, takes faults over HTTP, keeps one commit per key across a lost reply, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fake-authority.ts', '--port', '0'], {
      env: { ...process.env, AUTHORITY_USER: FAKE_USER, AUTHORITY_PASSWORD: FAKE_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!/listening on (http:\/\/127\.0\.0\.1:\d+)/.test(out)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the fake did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
      expect(out).not.toContain(FAKE_PASSWORD);
      const headers = { authorization: `Basic ${Buffer.from(`${FAKE_USER}:${FAKE_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
      const control = (path: string, body?: unknown) => fetch(`${url}/_control${path}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json());

      expect(await control('/fault', { mode: 'dropAfterCommit', times: 1 })).toEqual({ fault: { mode: 'dropAfterCommit', times: 1 } });
      const authority = createHttpAuthority({ baseUrl: url, user: FAKE_USER, password: FAKE_PASSWORD, timeoutMs: 5000 });
      await expect(authority.declare(sampleDeclaration(1))).rejects.toBeInstanceOf(AuthorityUnavailable);
      expect(await authority.declare(sampleDeclaration(1))).toMatchObject({ ok: true, duplicate: true });
      expect(await control('')).toMatchObject({ fault: { mode: 'up' }, stats: { commitsPerKey: { 'delivery:rec-1:declare': 1 }, committed: 1, duplicates: 1, faulted: 1 } });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('refuses to start without credentials', async () => {
    const env = { ...process.env };
    delete env.AUTHORITY_USER;
    delete env.AUTHORITY_PASSWORD;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fake-authority.ts', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(err).toContain('AUTHORITY_USER and AUTHORITY_PASSWORD');
  });
});
