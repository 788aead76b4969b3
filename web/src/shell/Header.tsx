import { useTranslation } from 'react-i18next';
import type { RouteEntry } from '../../../engine/src/index';
import { Brand } from '../components/Brand';
import { useAppNavigate } from '../frame/navigation';
import { useFrame } from '../frame/frameContext';
import { LanguageMenu } from './LanguageMenu';
import { UserMenu } from './UserMenu';
import { WarehouseSelector } from './WarehouseSelector';
import { useShell } from './shellContext';

const DASHBOARD = '/dashboard';

/** SPEC 2.1: logo, warehouse selector, help, language and user menus. */
export function Header({ route, menuOpen, onToggleMenu }: { route: RouteEntry | undefined; menuOpen: boolean; onToggleMenu: () => void }) {
  const { t } = useTranslation();
  const { registry, allowed } = useShell();
  const frame = useFrame();
  const navigate = useAppNavigate();
  const settings = registry.deployment.settings;
  const hasDashboard = allowed.some((r) => r.path === DASHBOARD);
  const brand = <Brand logo={settings.logo} version={settings.version.show ? settings.version.label : undefined} />;
  return (
    <header className="tm-header">
      <button
        type="button" className="tm-header__burger" aria-label={t('shell.menu.toggle')} aria-expanded={menuOpen}
        aria-controls="tm-sidenav" onClick={onToggleMenu} data-testid="burger"
      >
        <i className="pi pi-bars" aria-hidden="true" />
      </button>
      {hasDashboard ? (
        <a
          href={DASHBOARD} className="tm-header__logo" title={t('shell.logo.alt')}
          onClick={(e) => {
            e.preventDefault();
            navigate(DASHBOARD);
          }}
        >
          {brand}
        </a>
      ) : (
        <span className="tm-header__logo">{brand}</span>
      )}
      <div className="tm-header__spacer" />
      <WarehouseSelector route={route} />
      {frame.helpEnabled && (
        <button
          type="button" className="tm-header__button" aria-label={t('shell.help.start')} title={t('shell.help')}
          data-testid="help-button" onClick={() => frame.post({ type: 'startHelp' })}
        >
          <i className="pi pi-question-circle" aria-hidden="true" />
        </button>
      )}
      <LanguageMenu />
      <UserMenu />
    </header>
  );
}
