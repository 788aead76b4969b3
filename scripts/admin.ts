/**
 * `npm run admin -- reset-superadmin <email>`: the operator's way back in when no superadmin
 * can sign in (one was disabled or lost its access in the database, where the API's own
 * refusal cannot help). Opens the store the server would (MONGODB_URI, else DATA_DIR), makes
 * the user with that e-mail an enabled superadmin (creating them if needed), and then either
 * sets the password given in ADMIN_PASSWORD or prints a one-time link to choose one. Nothing
 * else secret is printed. Works while the server runs: sessions read the user on each request.
 */
import { readConfig } from '../server/src/config';
import { requireDefinitions } from '../definitions/read';
import { prepareStore } from '../server/src/boot';
import { openStore } from '../server/src/store/index';
import { hashPassword, requireStrongEnough } from '../server/src/auth/passwords';
import { checkAccountUsable, checkOrganisationRules, organisationOf } from '../server/src/auth/policy';
import { ResetTokens, resetLink } from '../server/src/auth/resetTokens';
import { restoreSuperadmin } from '../server/src/auth/superadmins';

const USAGE = `usage: npm run admin -- reset-superadmin <email>
  Makes <email> an enabled superadmin on the store of DATA_DIR (or MONGODB_URI), creating the
  user if there is none. With ADMIN_PASSWORD set, that becomes their password; otherwise a
  one-time link to choose one is printed (PUBLIC_URL is its address).`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const [command, email, ...rest] = process.argv.slice(2);
if (command !== 'reset-superadmin' || !email || rest.length > 0) fail(USAGE, 2);

const config = readConfig();
const registry = requireDefinitions(config.root);
const emailPattern = registry.entities.user?.fields.find((f) => f.id === 'email')?.pattern;
if (emailPattern && !new RegExp(emailPattern).test(email)) fail(`"${email}" is not an e-mail address\n${USAGE}`, 2);
// readConfig falls back to the demo password; only one the operator chose is set here.
const password = process.env.ADMIN_PASSWORD;
if (password) {
  try {
    requireStrongEnough(registry, password);
  } catch (e) {
    fail(`ADMIN_PASSWORD: ${(e as Error).message}`, 2);
  }
}

const store = await openStore({ dataDir: config.dataDir, mongodbUri: config.mongodbUri });
try {
  await prepareStore(registry, store);
  const { user, created } = await restoreSuperadmin(registry, store, email, password ? await hashPassword(password) : undefined, 'admin-cli');
  console.log(`${String(user.email)} is now an enabled superadmin (${created ? 'new user' : 'existing user'}, id ${user.id}) in ${config.mongodbUri ? 'MongoDB' : config.dataDir}.`);
  if (password) {
    console.log('Sign in with the password in ADMIN_PASSWORD.');
  } else {
    const validity = registry.deployment.settings.passwordResetValidityMs;
    const { token } = await new ResetTokens(store, validity, Date.now).issue(user.id);
    console.log(`Choose a password within ${Math.round(validity / 60_000)} minutes, once, at:\n  ${resetLink(config.publicUrl, token)}`);
  }
  // The account is fixed; its organisation may still keep it out, which the operator must know.
  try {
    const org = await organisationOf(store, user);
    checkOrganisationRules(registry, org, 'email', String(user.email));
    checkAccountUsable(registry, user, org, Date.now());
  } catch (e) {
    console.warn(`Warning: e-mail sign-in will still be refused: ${(e as Error).message} (see the user's organisation).`);
  }
} finally {
  await store.close();
}
