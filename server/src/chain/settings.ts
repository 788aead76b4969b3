import type { Registry } from '../../../engine/src/index';

export type ChainKind = 'ibc' | 'trueBulk';
export type ChainEnvironment = 'production' | 'test';
export const CHAIN_KINDS: readonly ChainKind[] = ['ibc', 'trueBulk'];
const ENVIRONMENTS: readonly ChainEnvironment[] = ['production', 'test'];

/** One network account: the chain of one kind of events in one environment. */
export interface ChainAccount { account: string; kind: ChainKind; environment: ChainEnvironment }

export interface ChainSettings {
  network: string;
  /** Where new events are chained; the other environment's chains are still verified. */
  environment: ChainEnvironment;
  accounts: ChainAccount[];
  /** Minutes between periodic anchorings; 0: only on demand. */
  anchorIntervalMinutes: number;
}

/** The collection IBC transitions log to (the ibc workflow's `log`): all of it is the IBC chain's. */
export const IBC_EVENTS = 'ibc_event';
/** Where workflows write their EPCIS events; those of the true bulk workflows are the true bulk chain's. */
export const EPCIS_EVENTS = ['object_events', 'transformation_events'] as const;
/**
 * The true bulk workflows: the bulk product's own life, declared in bulk, carried in trucks and
 * ISO tanks, and fractionated out of bulk. Their events are the true bulk chain's; a product
 * once fractionated into IBCs is the IBC chain's (its ibc_event rows).
 */
export const TRUE_BULK_WORKFLOWS = ['bulk_declaration', 'bulk_delivery', 'bulk_fractionation'] as const;

function text(v: unknown, where: string): string {
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`deployment settings.integrations.blockchain.${where}: a non-empty string is needed`);
  return v;
}

/** An account name: also no `|`, which ends an account's part of an entry's pos (chain/append.ts). */
function accountName(v: unknown, where: string): string {
  if (text(v, where).includes('|')) throw new Error(`deployment settings.integrations.blockchain.${where}: an account name holds no "|"`);
  return v as string;
}

/**
 * The deployment's blockchain settings, read and checked once (a mistake stops the start):
 * `network`, `environment` (production | test), `anchorIntervalMinutes` (≥ 0) and
 * `accounts.{ibc,trueBulk}.{production,test}`. Without a blockchain section nothing is chained.
 */
export function readChainSettings(reg: Registry): ChainSettings | null {
  const bc = (reg.deployment.settings.integrations as Record<string, unknown> | undefined)?.blockchain as Record<string, unknown> | undefined;
  if (bc === undefined) return null;
  const environment = bc.environment as ChainEnvironment;
  if (!ENVIRONMENTS.includes(environment)) throw new Error(`deployment settings.integrations.blockchain.environment: one of ${ENVIRONMENTS.join(', ')} is needed`);
  const minutes = bc.anchorIntervalMinutes;
  if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < 0) throw new Error('deployment settings.integrations.blockchain.anchorIntervalMinutes: a number ≥ 0 is needed');
  const accounts = (bc.accounts ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const list = CHAIN_KINDS.flatMap((kind) => ENVIRONMENTS.map((env) => ({ account: accountName(accounts[kind]?.[env], `accounts.${kind}.${env}`), kind, environment: env })));
  if (new Set(list.map((a) => a.account)).size !== list.length) throw new Error('deployment settings.integrations.blockchain.accounts: each account must be distinct');
  return { network: text(bc.network, 'network'), environment, accounts: list, anchorIntervalMinutes: minutes };
}

/** The account new events of this kind are chained to. */
export function activeAccount(s: ChainSettings, kind: ChainKind): string {
  return s.accounts.find((a) => a.kind === kind && a.environment === s.environment)!.account;
}

/** Per event collection, the account a transition of this workflow chains its events to ({} when none). */
export function chainAccountsFor(s: ChainSettings | null, workflow: string): Record<string, string> {
  if (!s) return {};
  const out: Record<string, string> = { [IBC_EVENTS]: activeAccount(s, 'ibc') };
  if ((TRUE_BULK_WORKFLOWS as readonly string[]).includes(workflow)) for (const c of EPCIS_EVENTS) out[c] = activeAccount(s, 'trueBulk');
  return out;
}

const read = new WeakMap<Registry, ChainSettings | null>();
/** readChainSettings, once per registry. */
export function chainSettingsOf(reg: Registry): ChainSettings | null {
  if (!read.has(reg)) read.set(reg, readChainSettings(reg));
  return read.get(reg)!;
}
