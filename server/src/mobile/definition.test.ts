/**
 * schemas/mobile.json is checked once at load: each broken definition gives a configurator's
 * message naming the feature and the place.
 */
import { describe, expect, it } from 'vitest';
import { formatProblem, loadRegistry } from '../../../engine/src/index';
import { readDefinitionSources } from '../../../definitions/read';

const sources = readDefinitionSources(process.cwd());
const mobile = JSON.parse(sources.find((s) => s.path === 'schemas/mobile.json')!.text) as { appVersion: string; features: Record<string, any>[] };
const at = (id: string) => mobile.features.findIndex((f) => f.id === id);

/** The problems of the real definitions with schemas/mobile.json changed by `edit`. */
function problems(edit: (def: typeof mobile) => void): string[] {
  const def = structuredClone(mobile);
  edit(def);
  const changed = sources.map((s) => (s.path === 'schemas/mobile.json' ? { ...s, text: JSON.stringify(def) } : s));
  return loadRegistry(changed).problems.map(formatProblem);
}
const feature = (def: typeof mobile, id: string) => def.features.find((f) => f.id === id)!;

describe('schemas/mobile.json', () => {
  it('loads: fifteen features, one per SPEC 2.5 feature, each key a mobile key', () => {
    const { registry, problems: found } = loadRegistry(sources);
    expect(found).toEqual([]);
    expect(registry!.mobile.features).toHaveLength(15);
    expect(registry!.mobile.features.every((f) => /^(ibc|bulk)\.mobile\./.test(f.key))).toBe(true);
    expect(registry!.mobile.features.find((f) => f.id === 'ibcInventory')!.actions).toEqual([]);
    expect(registry!.mobile.features.find((f) => f.id === 'mapLocation')!.list?.map).toEqual({ lat: 'location.lat', lng: 'location.lng' });
  });

  it.each([
    ['an undeclared key', (d: typeof mobile) => { feature(d, 'ibcDelivery').key = 'ibc.mobile.nothing'; }, `/features/${at('ibcDelivery')}/key: feature "ibcDelivery": access key "ibc.mobile.nothing" is not declared in schemas/access.json`],
    ['a key that is not a mobile key', (d: typeof mobile) => { feature(d, 'ibcDelivery').key = 'IBC Deliveries'; }, 'feature "ibcDelivery": "IBC Deliveries" is not a mobile feature key'],
    ['an unknown workflow', (d: typeof mobile) => { feature(d, 'ibcDelivery').workflow = 'ibc_deliveries'; }, `/features/${at('ibcDelivery')}/workflow: feature "ibcDelivery": workflow "ibc_deliveries" does not exist`],
    ['an unknown transition', (d: typeof mobile) => { feature(d, 'ibcDelivery').actions[0].transition = 'ship'; }, 'feature "ibcDelivery": "ship" is not a transition of ibc_delivery'],
    ['a transition the key does not grant', (d: typeof mobile) => { feature(d, 'ibcDelivery').actions.push({ transition: 'receive' }); }, 'feature "ibcDelivery": ibc.mobile.delivery does not grant ibc_delivery receive'],
    ['a create the key does not grant', (d: typeof mobile) => { feature(d, 'ibcDelivery').create = { fields: ['shipmentID'] }; }, `/features/${at('ibcDelivery')}/create: feature "ibcDelivery": ibc.mobile.delivery does not grant ibc_delivery's drafts`],
    ['a field the entity lacks', (d: typeof mobile) => { feature(d, 'ibcDelivery').list.title = 'shipmentNo'; }, `/features/${at('ibcDelivery')}/list/title: feature "ibcDelivery": field "shipmentNo" is not a field of ibc_delivery`],
    ['an action field the transition neither takes nor needs', (d: typeof mobile) => { feature(d, 'ibcReceptions').actions[0].fields.push('shipmentID'); }, 'feature "ibcReceptions": "shipmentID" is neither an input nor a requires path of ibc_delivery receive (receivedDate)'],
    ['an unknown state', (d: typeof mobile) => { feature(d, 'ibcReceptions').list.states = ['InProgress']; }, 'feature "ibcReceptions": "InProgress" is not a state of ibc_delivery'],
    ['an id twice', (d: typeof mobile) => { feature(d, 'ibcReceptions').id = 'ibcDelivery'; }, `/features/${at('ibcReceptions')}/id: feature "ibcDelivery": the id is declared twice`],
    ['a list the key may not read', (d: typeof mobile) => { feature(d, 'performQc').workflow = 'return_request'; feature(d, 'performQc').list = { title: 'requestNumber' }; feature(d, 'performQc').actions = []; }, 'feature "performQc": ibc.mobile.performqc does not grant reading return_request'],
    ['a stock feature with actions', (d: typeof mobile) => { feature(d, 'ibcInventoryOutbound').actions = [{ transition: 'confirm' }]; }, 'feature "ibcInventoryOutbound": a stock feature is read-only'],
    ['an app version the deployment does not have', (d: typeof mobile) => { d.appVersion = '1.2.0'; }, "schemas/mobile.json:/appVersion: appVersion 1.2.0 differs from the deployment's settings.mobileAppVersion 1.1.0"],
    ['a map field the entity lacks', (d: typeof mobile) => { feature(d, 'mapLocation').list.map.lat = 'location.latitude'; }, `/features/${at('mapLocation')}/list/map/lat: feature "mapLocation": map.lat "location.latitude" is not a field of ibc_container`],
    ['a map field that is not a number', (d: typeof mobile) => { feature(d, 'mapLocation').list.map.lng = 'serial_number'; }, `/features/${at('mapLocation')}/list/map/lng: feature "mapLocation": map.lng "serial_number" is a string field of ibc_container, not a number`],
    ['a map on a stock list', (d: typeof mobile) => { feature(d, 'ibcInventoryOutbound').list.map = { lat: 'quantity', lng: 'quantity' }; }, 'feature "ibcInventoryOutbound": stock rows have no place to map'],
    ['an icon outside the set', (d: typeof mobile) => { feature(d, 'ibcDelivery').icon = 'lorry'; }, `/features/${at('ibcDelivery')}/icon: must be one of`],
  ])('%s is refused with a message naming it', (_name, edit, message) => {
    const found = problems(edit);
    expect(found.some((p) => p.includes(message)), found.join('\n')).toBe(true);
  });
});
