import { describe, expect, it } from 'vitest';
import { buildRouteTable, routesFor, type WarehouseGroup } from '../../../engine/src/index';
import { fixtureRegistry } from '../../../engine/src/testing/fixtures';
import { parseInbound } from './messages';
import { effectsOf, goToEffects, type ProtocolContext } from './protocol';

const reg = fixtureRegistry();
const all = buildRouteTable(reg, 'en');
const admin = routesFor(all, { access: ['superadmin'] });
const mapOnly = routesFor(all, { access: ['traceabilityMapUser'] });
const group: WarehouseGroup = { name: 'North Hub', warehouseList: [{ id: 1, optchainId: 'a', name: 'Rosario', label: 'Rosario (D-1)', plantId: null }] };

function ctx(over: Partial<ProtocolContext> = {}): ProtocolContext {
  return { routes: admin, feature: { frameData: true }, warehouse: group, warehouseList: [group], language: 'es', registry: reg, ...over };
}

describe('parseInbound', () => {
  it('reads the protocol messages and ignores anything else', () => {
    expect(parseInbound({ type: 'guestIsReady' })).toEqual({ type: 'guestIsReady' });
    expect(parseInbound({ type: 'goTo', payload: { type: 'lot', path: 'x', query: { lot: 'L1' } } }))
      .toEqual({ type: 'goTo', payload: { type: 'lot', path: 'x', query: { lot: 'L1' } } });
    expect(parseInbound({ type: 'helpStatus', payload: { enabled: true } })).toEqual({ type: 'helpStatus', payload: { enabled: true } });
    for (const junk of [null, 'guestIsReady', 42, {}, { type: 'goTo' }, { type: 'goTo', payload: { type: '' } }, { type: 'eval', payload: 'x' }, []]) {
      expect(parseInbound(junk), JSON.stringify(junk)).toBeNull();
    }
  });
});

describe('effectsOf', () => {
  it('answers guestIsReady with parentFrameData for features with frame data', () => {
    expect(effectsOf({ type: 'guestIsReady' }, ctx())).toEqual([
      { kind: 'ready' },
      { kind: 'reply', message: { type: 'parentFrameData', payload: { warehouse: group, warehouseList: [group] } } },
    ]);
  });

  it('only notes readiness for features without frame data', () => {
    expect(effectsOf({ type: 'guestIsReady' }, ctx({ feature: { frameData: false } }))).toEqual([{ kind: 'ready' }]);
  });

  it('answers requestLanguagePref with the interface language', () => {
    expect(effectsOf({ type: 'requestLanguagePref' }, ctx())).toEqual([{ kind: 'reply', message: { type: 'languagePref', payload: { language: 'es' } } }]);
  });

  it('clears the warehouse and follows the help announcement', () => {
    expect(effectsOf({ type: 'clearSelectedWarehouse' }, ctx())).toEqual([{ kind: 'clearWarehouse' }]);
    expect(effectsOf({ type: 'helpStatus', payload: { enabled: true } }, ctx())).toEqual([{ kind: 'help', enabled: true }]);
  });
});

describe('goTo', () => {
  it('goes home to /', () => {
    expect(goToEffects({ type: 'home' }, admin, reg)).toEqual([{ kind: 'navigate', to: '/' }]);
  });

  it('goes to the lowest-ordered route declaring the type, with the query as query string', () => {
    expect(goToEffects({ type: 'lot', query: { lot: 'L-1', page: 2 } }, admin, reg)).toEqual([{ kind: 'navigate', to: '/product-history?lot=L-1&page=2' }]);
  });

  it('falls back to the next route the user may open', () => {
    expect(goToEffects({ type: 'lot', query: { lot: 'L-1' } }, mapOnly, reg)).toEqual([{ kind: 'navigate', to: '/traceability-map?lot=L-1' }]);
  });

  it('appends a path below the route', () => {
    expect(goToEffects({ type: 'company', path: '/details/7' }, admin, reg)).toEqual([{ kind: 'navigate', to: '/masterdata/details/7' }]);
  });

  it('shows the invalid-data error and does not navigate when the query fails the type\'s validation', () => {
    expect(goToEffects({ type: 'lot', query: { lot: 42 } }, admin, reg)).toEqual([{ kind: 'toast', toast: 'invalidData' }]);
    expect(goToEffects({ type: 'epc', query: {} }, admin, reg)).toEqual([{ kind: 'toast', toast: 'invalidData' }]);
    expect(goToEffects({ type: 'import', query: { entity: 'lot' } }, admin, reg)).toEqual([{ kind: 'toast', toast: 'invalidData' }]);
  });

  it('warns Unavailable when no route the user may open declares the type', () => {
    expect(goToEffects({ type: 'company' }, mapOnly, reg)).toEqual([{ kind: 'toast', toast: 'unavailable' }]);
    expect(goToEffects({ type: 'nothing' }, admin, reg)).toEqual([{ kind: 'toast', toast: 'unavailable' }]);
  });
});
