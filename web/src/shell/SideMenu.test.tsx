// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildMenu, buildRouteTable, routesFor, type Principal } from '../../../engine/src/index';
import { fixtureRegistry } from '../../../engine/src/testing/fixtures';
import { ServicesContext, type Services } from '../app/services';
import { createI18n } from '../i18n/i18n';
import { ShellContext, type ShellValue } from './shellContext';
import { SideMenu } from './SideMenu';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const registry = fixtureRegistry();
const services = { config: { deployment: { settings: { frame: {} } } } } as unknown as Services;

function shell(p: Principal, showIcons = true): ShellValue {
  const reg = { ...registry, deployment: { ...registry.deployment, settings: { ...registry.deployment.settings, showIcons } } };
  const routes = buildRouteTable(reg, 'en');
  return { registry: reg, lang: 'en', routes, principal: p, allowed: routesFor(routes, p), menu: buildMenu(reg, routes, p, 'en') };
}

let i18n: I18n;
let container: HTMLElement;
let root: Root;
let path = '';

let navigate: ReturnType<typeof useNavigate>;
function Where() {
  path = useLocation().pathname;
  navigate = useNavigate();
  return null;
}

function render(at: string, value: ShellValue) {
  act(() => {
    root.render(
      <I18nextProvider i18n={i18n}>
        <ServicesContext.Provider value={services}>
          <ShellContext.Provider value={value}>
            <MemoryRouter initialEntries={[at]}>
              <SideMenu open onNavigate={() => undefined} />
              <Where />
            </MemoryRouter>
          </ShellContext.Provider>
        </ServicesContext.Provider>
      </I18nextProvider>,
    );
  });
}

const toggle = (id: string) => container.querySelector<HTMLButtonElement>(`.tm-nav > li > button[data-menu-id="${id}"]`)!;
const link = (id: string) => container.querySelector<HTMLAnchorElement>(`a[data-menu-id="${id}"]`);

beforeAll(async () => {
  i18n = await createI18n({ en: {} }, 'en');
});
beforeEach(() => {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe('SideMenu', () => {
  it('opens the group of the current route and keeps the others closed', () => {
    render('/imports', shell({ access: ['superadmin'] }));
    expect(toggle('admin').getAttribute('aria-expanded')).toBe('true');
    expect(toggle('dashboards').getAttribute('aria-expanded')).toBe('false');
    expect(link('imports')?.getAttribute('aria-current')).toBe('page');
  });

  it('toggles a group on click', () => {
    render('/imports', shell({ access: ['superadmin'] }));
    act(() => toggle('dashboards').click());
    expect(toggle('dashboards').getAttribute('aria-expanded')).toBe('true');
    expect(link('dashboard')).not.toBeNull();
    act(() => toggle('dashboards').click());
    expect(link('dashboard')).toBeNull();
  });

  it('keeps the current route\'s group collapsed when the user closed it and the menu is rebuilt', () => {
    render('/imports', shell({ access: ['superadmin'] }));
    act(() => toggle('admin').click());
    expect(toggle('admin').getAttribute('aria-expanded')).toBe('false');
    // A new menu for the same route, as when the language or the warehouse groups arrive.
    render('/imports', shell({ access: ['superadmin'] }));
    expect(toggle('admin').getAttribute('aria-expanded')).toBe('false');
  });

  it('opens the collapsed group again when the user comes back to its route from one outside any group', () => {
    render('/imports', shell({ access: ['superadmin'] }));
    act(() => toggle('admin').click());
    act(() => link('globalsearch')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 })));
    expect(path).toBe('/globalsearch');
    expect(toggle('admin').getAttribute('aria-expanded')).toBe('false');
    act(() => { void navigate('/imports'); });
    expect(toggle('admin').getAttribute('aria-expanded')).toBe('true');
  });

  it('opens http entries in a new tab and navigates in place otherwise', () => {
    render('/imports', shell({ access: ['superadmin'] }));
    expect(link('auth')?.getAttribute('target')).toBe('_blank');
    expect(link('auth')?.getAttribute('rel')).toContain('noopener');
    act(() => link('masterdata')!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 })));
    expect(path).toBe('/masterdata');
  });

  it('shows only what the access allows, and no icons when they are switched off', () => {
    render('/', shell({ access: ['Dashboards'] }, false));
    const ids = [...container.querySelectorAll('.tm-nav > li > [data-menu-id]')].map((e) => e.getAttribute('data-menu-id'));
    expect(ids).toEqual(['globalsearch', 'dashboards']);
    expect(container.querySelectorAll('.tm-nav__icon').length).toBe(0);
  });
});
