import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { activeGroupOf, type MenuItem } from '../../../engine/src/index';
import { useAppNavigate } from '../frame/navigation';
import { useShell } from './shellContext';

function isActive(path: string | undefined, pathname: string): boolean {
  if (!path) return false;
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

function MenuLink({ item, showIcons, onNavigate, nested }: { item: MenuItem; showIcons: boolean; onNavigate: () => void; nested?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useAppNavigate();
  const active = isActive(item.path, pathname);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (item.newTab || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(item.path!);
    onNavigate();
  };
  return (
    <li>
      <a
        href={item.path} className={`tm-nav__link${nested ? ' tm-nav__link--nested' : ''}${active ? ' is-active' : ''}`}
        aria-current={active ? 'page' : undefined} onClick={onClick} data-menu-id={item.id}
        {...(item.newTab ? { target: '_blank', rel: 'noopener noreferrer', title: t('shell.newTab') } : {})}
      >
        {showIcons && <i className={`tm-nav__icon ${item.icon ?? 'pi pi-circle'}`} aria-hidden="true" />}
        <span className="tm-nav__label">{item.label}</span>
        {item.newTab && <i className="pi pi-external-link tm-nav__external" aria-hidden="true" />}
      </a>
    </li>
  );
}

function MenuGroup({ item, open, onToggle, showIcons, onNavigate }: {
  item: MenuItem; open: boolean; onToggle: () => void; showIcons: boolean; onNavigate: () => void;
}) {
  const { pathname } = useLocation();
  const current = item.children?.some((c) => isActive(c.path, pathname)) ?? false;
  const listId = `tm-nav-group-${item.id}`;
  return (
    <li className={`tm-nav__group${open ? ' is-open' : ''}${current ? ' is-current' : ''}`}>
      <button type="button" className="tm-nav__link tm-nav__toggle" aria-expanded={open} aria-controls={listId} onClick={onToggle} data-menu-id={item.id}>
        {showIcons && <i className={`tm-nav__icon ${item.icon ?? 'pi pi-folder'}`} aria-hidden="true" />}
        <span className="tm-nav__label">{item.label}</span>
        <i className={`pi ${open ? 'pi-chevron-up' : 'pi-chevron-down'} tm-nav__chevron`} aria-hidden="true" />
      </button>
      {open && (
        <ul id={listId} className="tm-nav__children">
          {item.children!.map((c) => (c.children
            ? <MenuGroupNested key={c.id} item={c} showIcons={showIcons} onNavigate={onNavigate} />
            : <MenuLink key={c.id} item={c} showIcons={false} onNavigate={onNavigate} nested />))}
        </ul>
      )}
    </li>
  );
}

/** A custom menu may nest groups deeper; those stay open. */
function MenuGroupNested({ item, showIcons, onNavigate }: { item: MenuItem; showIcons: boolean; onNavigate: () => void }) {
  return <MenuGroup item={item} open onToggle={() => undefined} showIcons={showIcons} onNavigate={onNavigate} />;
}

/**
 * SPEC 2.1: the side menu from the engine's buildMenu. A group opens when the current route
 * belongs to it and toggles on click; http entries open in a new tab.
 */
export function SideMenu({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { menu, registry } = useShell();
  const { pathname } = useLocation();
  const showIcons = registry.deployment.settings.showIcons;
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set([activeGroupOf(menu, pathname)].filter((x): x is string => !!x)));

  // Opened when the route (or the group it belongs to) changes; a menu rebuilt for the same route (the
  // language or the groups arriving) leaves a group the user collapsed collapsed.
  const opened = useRef<string | undefined>(undefined);
  useEffect(() => {
    const g = activeGroupOf(menu, pathname);
    const at = `${g ?? ''}\u0000${pathname}`;
    if (at === opened.current) return;
    opened.current = at;
    if (g) setExpanded((s) => (s.has(g) ? s : new Set([...s, g])));
  }, [menu, pathname]);

  const toggle = (id: string) => setExpanded((s) => {
    const next = new Set(s);
    if (!next.delete(id)) next.add(id);
    return next;
  });

  return (
    <nav id="tm-sidenav" className={`tm-sidenav${open ? ' is-open' : ''}`} aria-label={t('shell.menu.label')} data-testid="side-menu">
      <ul className="tm-nav">
        {menu.map((item) => (item.children
          ? <MenuGroup key={item.id} item={item} open={expanded.has(item.id)} onToggle={() => toggle(item.id)} showIcons={showIcons} onNavigate={onNavigate} />
          : <MenuLink key={item.id} item={item} showIcons={showIcons} onNavigate={onNavigate} />))}
      </ul>
    </nav>
  );
}
