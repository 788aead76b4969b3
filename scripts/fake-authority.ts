/**
 * `npm run fake-authority`: the fake agricultural authority on loopback (docs/authority.md),
 * for a local server to sync against and for tests and benches driving it from another process
 * (its /_control routes). Credentials are the server's own variables, AUTHORITY_USER and
 * AUTHORITY_PASSWORD, so one environment serves both; the port defaults to the one in the
 * deployment's integrations.authority.baseUrl.
 *
 *   AUTHORITY_USER=u AUTHORITY_PASSWORD=p npm run fake-authority -- [--port 4010] [--file authority.jsonl]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startFakeAuthority } from '../server/src/sync/authority/fake';

function deploymentPort(): number | undefined {
  try {
    const deployment = JSON.parse(readFileSync('schemas/deployment.json', 'utf8')) as { settings?: { integrations?: { authority?: { baseUrl?: string } } } };
    const port = new URL(deployment.settings?.integrations?.authority?.baseUrl ?? '').port;
    return port ? Number(port) : undefined;
  } catch {
    return undefined;
  }
}

const { values } = parseArgs({
  options: { port: { type: 'string' }, user: { type: 'string' }, password: { type: 'string' }, file: { type: 'string' } },
});
const portText = values.port ?? process.env.FAKE_AUTHORITY_PORT;
const port = portText !== undefined ? Number(portText) : (deploymentPort() ?? 4010);
const user = values.user ?? process.env.AUTHORITY_USER;
const password = values.password ?? process.env.AUTHORITY_PASSWORD;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port (or FAKE_AUTHORITY_PORT) must be a port number, got "${portText}"`);
  process.exit(2);
}
if (!user || !password) {
  console.error('set AUTHORITY_USER and AUTHORITY_PASSWORD (or --user and --password): the fake checks them as the authority would');
  process.exit(2);
}

const fake = await startFakeAuthority({ port, host: '127.0.0.1', user, password, file: values.file ?? process.env.FAKE_AUTHORITY_FILE });
console.log(`fake authority listening on ${fake.url} (user ${user}${values.file ? `, journal ${values.file}` : ''})`);
console.log(`faults: curl -u "$AUTHORITY_USER:$AUTHORITY_PASSWORD" -H 'content-type: application/json' -d '{"mode":"flap"}' ${fake.url}/_control/fault`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void fake.stop().then(() => process.exit(0)));
}
