/**
 * `npm run e2e`: the browser suite. Builds the web app when needed, starts a test SMTP
 * server, the fake agricultural authority, a features origin serving the test feature page,
 * and the real server (temp
 * DATA_DIR, definitions with the frame settings pointed at the features origin), then runs
 * e2e/ with vitest against Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
 * Screenshots go to .ci-artifacts/screenshots. Installs nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeAppRoot } from '../e2e/harness/appRoot';
import { CHROMIUM } from '../e2e/harness/browser';
import { ensureWebBuild } from '../e2e/harness/build';
import { startFeaturesServer } from '../e2e/harness/features';
import { seedE2e } from '../e2e/harness/seed';
import { startServer } from '../e2e/harness/server';
import { startSmtp } from '../e2e/harness/smtp';
import { startFakeAuthority } from '../server/src/sync/authority/fake';
import { FAKE_PASSWORD, FAKE_USER } from '../server/src/sync/authority/testing';
import { USERS } from '../e2e/harness/users';
import { closingLine, readTotals } from './ci/vitestTotals';

const root = process.cwd();
const artifacts = resolve(root, '.ci-artifacts');

// Not 3000: the suite runs where a newcomer's `PORT=3101 npm start` does, so nothing may assume
// the default port (the feature frame once did).
const DEFAULT_PORT_BASE = 3101;

/** n consecutive ports from E2E_PORT_BASE (where several runs share a machine), else from 3101. */
function distinctPorts(n: number): number[] {
  const base = Number(process.env.E2E_PORT_BASE) || DEFAULT_PORT_BASE;
  return Array.from({ length: n }, (_, i) => base + i);
}

function runVitest(env: Record<string, string>, resultsFile: string): Promise<number> {
  const vitest = join(root, 'node_modules', '.bin', 'vitest');
  const args = ['run', '--config', 'e2e/vitest.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...process.argv.slice(2)];
  return new Promise((resolveRun) => {
    const child = spawn(vitest, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.once('exit', (code) => resolveRun(code ?? 1));
  });
}

function summary(resultsFile: string): string {
  const totals = readTotals([resultsFile]);
  return totals.missing.length ? 'e2e: no results (the suite did not run)' : closingLine('e2e', totals);
}

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) {
    console.error(`Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
    return 1;
  }
  ensureWebBuild(root);
  mkdirSync(join(artifacts, 'screenshots'), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'tm-e2e-'));
  const mailDir = join(work, 'mail');
  const dataDir = join(work, 'data');
  const [appPort, featuresPort, smtpPort] = distinctPorts(3);
  const appUrl = `http://127.0.0.1:${appPort}`;
  const stops: (() => Promise<void>)[] = [];
  let appRoot: string | undefined;
  try {
    const smtp = await startSmtp(mailDir, smtpPort);
    stops.push(smtp.stop);
    // The server's sync worker declares to it (on any free port: the stories' servers take the
    // ports after the suite's three).
    const authority = await startFakeAuthority({ user: FAKE_USER, password: FAKE_PASSWORD });
    stops.push(authority.stop);
    const features = await startFeaturesServer(join(root, 'e2e', 'fixtures', 'feature.html'), featuresPort);
    stops.push(features.stop);
    appRoot = makeAppRoot(root, (d) => {
      // A separate features host; the shell's origin (allowedOrigins empty) is whatever it is reached at.
      d.settings.frame = { ...d.settings.frame, featuresOrigin: features.url, allowedOrigins: [] };
    });
    await seedE2e(appRoot, dataDir);
    const server = await startServer(root, appPort, {
      DATA_DIR: dataDir, APP_ROOT: appRoot, ADMIN_EMAIL: USERS.admin.email, ADMIN_PASSWORD: USERS.admin.password,
      SMTP_URL: smtp.url, PUBLIC_URL: appUrl,
      AUTHORITY_BASE_URL: authority.url, AUTHORITY_USER: FAKE_USER, AUTHORITY_PASSWORD: FAKE_PASSWORD,
    });
    stops.push(server.stop);
    console.log(`server ${appUrl}, features origin ${features.url}, smtp ${smtp.url}, authority ${authority.url}`);
    const resultsFile = join(artifacts, 'e2e-results.json');
    rmSync(resultsFile, { force: true });
    const code = await runVitest({
      E2E_BASE_URL: appUrl, E2E_FEATURES_URL: features.url, E2E_MAIL_DIR: mailDir, E2E_ARTIFACTS: artifacts, E2E_AUTHORITY_URL: authority.url,
    }, resultsFile);
    if (code !== 0) console.log(`\nlast server output:\n${server.output().slice(-4000)}`);
    console.log(`screenshots: ${join(artifacts, 'screenshots')}`);
    console.log(summary(resultsFile));
    return code;
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
    if (appRoot) {
      // Unlink the link to web/ first, so removing the copy can never reach the real sources.
      const link = join(appRoot, 'web');
      if (existsSync(link) && lstatSync(link).isSymbolicLink()) unlinkSync(link);
      rmSync(appRoot, { recursive: true, force: true });
    }
  }
}

process.exitCode = await main();
