import { IBC_LOOKUP_OPERATION, MOBILE_KEY, STOCK_OPERATION, STOCK_ROW_FIELDS, type MobileDef, type MobileDefinition } from '../mobile/types';
import type { FieldDef } from '../types';
import { keysGranting, transitionKeys, workflowKeys } from '../workflow/access';
import { HISTORY_FIELD } from '../workflow/plan';
import type { Parsed } from './load';
import { fieldAt, ID_FIELD } from './registry';

type Add = (file: string, pointer: string, message: string) => void;

/**
 * What the mobile meta-schema cannot see, each problem naming the feature: the versions agree with
 * the deployment's, ids are unique, the key is a declared mobile feature key, the workflow, its
 * states, transitions and fields exist, every transition offered is one the key grants, a draft
 * is offered only when the key grants the workflow's drafts, an action asks only what its
 * transition takes (input) or needs (requires), a list is one the key may read, a list's map
 * names number fields.
 */
export function checkMobile(p: Parsed, add: Add): void {
  if (!p.mobile) return;
  const { file, def } = p.mobile;
  const settings = p.deployment?.def.settings;
  if (settings && def.appVersion !== settings.mobileAppVersion) add(file, '/appVersion', `appVersion ${def.appVersion} differs from the deployment's settings.mobileAppVersion ${settings.mobileAppVersion}: change both`);
  if (settings && def.termsVersion !== settings.terms.mobileVersion) add(file, '/termsVersion', `termsVersion ${def.termsVersion} differs from the deployment's settings.terms.mobileVersion ${settings.terms.mobileVersion}: change both`);
  const access = p.access!.def;
  const keys = new Map(access.keys.map((k) => [k.key, k]));
  const ids = new Set<string>();
  def.features.forEach((f, i) => {
    const at = `/features/${i}`;
    const named = `feature "${f.id}"`;
    const addAt = (pointer: string, message: string) => add(file, `${at}${pointer}`, `${named}: ${message}`);
    if (ids.has(f.id)) addAt('/id', 'the id is declared twice');
    ids.add(f.id);
    const key = keys.get(f.key);
    if (!key) return addAt('/key', `access key "${f.key}" is not declared in schemas/access.json`);
    if (!MOBILE_KEY.test(f.key) || !key.operations?.length) return addAt('/key', `"${f.key}" is not a mobile feature key (ibc.mobile.* or bulk.mobile.*, with the operations it grants)`);
    const grants = (ops: readonly string[]) => keysGranting(access, ops).includes(f.key);
    if (f.scan === 'ibc' && !grants([IBC_LOOKUP_OPERATION])) addAt('/scan', `${f.key} does not list ${IBC_LOOKUP_OPERATION}, so its holders cannot look an IBC up`);
    if (f.source === 'stock') return checkStockFeature(f, grants, addAt);
    if (f.workflow === undefined) return addAt('', 'names the workflow it acts on (workflow), or reads stock ("source": "stock")');
    const wf = p.workflows.get(f.workflow)?.def;
    if (!wf) return addAt('/workflow', `workflow "${f.workflow}" does not exist`);
    const entity = p.entities.get(wf.entity)?.def;
    if (!entity) return; // the workflow's own check says so
    const fields: FieldDef[] = [...entity.fields, ID_FIELD];
    const field = (pointer: string, path: string) => {
      if (path === HISTORY_FIELD || !fieldAt(fields, path)) addAt(pointer, `field "${path}" is not a field of ${wf.entity}`);
    };
    if (f.list) {
      if (!workflowKeys({ access }, wf, 'read').includes(f.key)) addAt('/list', `${f.key} does not grant reading ${wf.name} (none of its operations.read), so the list would be refused`);
      const states = new Set(wf.states.map((s) => s.id));
      f.list.states?.forEach((s, j) => { if (!states.has(s)) addAt(`/list/states/${j}`, `"${s}" is not a state of ${wf.name}; its states: ${[...states].join(', ')}`); });
      field('/list/title', f.list.title);
      f.list.subtitle?.forEach((s, j) => field(`/list/subtitle/${j}`, s));
      for (const axis of ['lat', 'lng'] as const) {
        const path = f.list.map?.[axis];
        if (path === undefined) continue;
        const def = path === HISTORY_FIELD ? undefined : fieldAt(fields, path);
        if (!def) addAt(`/list/map/${axis}`, `map.${axis} "${path}" is not a field of ${wf.entity}`);
        else if (def.type !== 'number' || def.multiple) addAt(`/list/map/${axis}`, `map.${axis} "${path}" is a ${def.multiple ? 'list' : def.type} field of ${wf.entity}, not a number`);
      }
    }
    if (f.create) {
      if (entity.kind !== 'operation') addAt('/create', `${wf.entity} records are not created as drafts (kind ${entity.kind})`);
      else if (!workflowKeys({ access }, wf, 'draft').includes(f.key)) addAt('/create', `${f.key} does not grant ${wf.name}'s drafts (operations.draft: ${(wf.operations?.draft ?? []).join(', ') || 'none'})`);
      f.create.fields.forEach((c, j) => field(`/create/fields/${j}`, c));
    }
    const taken = new Set<string>();
    f.actions?.forEach((a, j) => {
      const aat = `/actions/${j}`;
      if (taken.has(a.transition)) addAt(`${aat}/transition`, `transition "${a.transition}" is offered twice`);
      taken.add(a.transition);
      const t = wf.transitions.find((x) => x.id === a.transition);
      if (!t) return addAt(`${aat}/transition`, `"${a.transition}" is not a transition of ${wf.name}; its transitions: ${wf.transitions.map((x) => x.id).join(', ')}`);
      if (!transitionKeys({ access }, t).includes(f.key)) addAt(`${aat}/transition`, `${f.key} does not grant ${wf.name} ${t.id} (it needs ${t.access} or a key listing one of: ${(t.operations ?? []).join(', ') || 'no operation'})`);
      const asked = new Set([...(t.input ?? []), ...(t.requires ?? [])]);
      a.fields?.forEach((x, k) => {
        if (!asked.has(x)) addAt(`${aat}/fields/${k}`, `"${x}" is neither an input nor a requires path of ${wf.name} ${t.id}${asked.size ? ` (${[...asked].join(', ')})` : ' (it takes none)'}`);
        else field(`${aat}/fields/${k}`, x);
      });
    });
  });
}

function checkStockFeature(f: MobileDefinition['features'][number], grants: (ops: readonly string[]) => boolean, addAt: (pointer: string, message: string) => void): void {
  if (!grants([STOCK_OPERATION])) addAt('/key', `${f.key} does not list ${STOCK_OPERATION}, so GET /api/v3/stock would be refused`);
  if (f.workflow !== undefined) addAt('/workflow', 'a stock feature reads GET /api/v3/stock, not a workflow');
  if (f.create) addAt('/create', 'a stock feature is read-only');
  if (f.actions?.length) addAt('/actions', 'a stock feature is read-only');
  const column = (pointer: string, c: string) => { if (!STOCK_ROW_FIELDS.includes(c)) addAt(pointer, `"${c}" is not a column of a stock row (${STOCK_ROW_FIELDS.join(', ')})`); };
  if (f.list) {
    if (f.list.states) addAt('/list/states', 'stock rows have no states');
    if (f.list.map) addAt('/list/map', 'stock rows have no place to map');
    column('/list/title', f.list.title);
    f.list.subtitle?.forEach((c, j) => column(`/list/subtitle/${j}`, c));
  }
}

/** Every action with its field list. */
export function sanitiseMobile(def: MobileDefinition): MobileDef {
  return {
    appVersion: def.appVersion,
    termsVersion: def.termsVersion,
    features: def.features.map((f) => ({ ...f, actions: (f.actions ?? []).map((a) => ({ transition: a.transition, fields: a.fields ?? [] })) })),
  };
}
