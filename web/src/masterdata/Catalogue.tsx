import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useShell } from '../shell/shellContext';
import { catalogueFor } from './catalogue';

/** The entities this user may open, each a link to its list. */
export function Catalogue({ basePath }: { basePath: string }) {
  const { t } = useTranslation();
  const { registry, principal, lang, routes } = useShell();
  const own = useMemo(() => new Set(routes.filter((r) => r.screen === 'entityList' && r.entity).map((r) => r.entity!)), [routes]);
  const entries = useMemo(() => catalogueFor(registry, principal, lang, own), [registry, principal, lang, own]);
  if (entries.length === 0) return <p data-testid="catalogue-empty">{t('masterdata.catalogue.empty')}</p>;
  return (
    <ul className="tm-md-catalogue" data-testid="catalogue">
      {entries.map((e) => (
        <li key={e.name} className="tm-md-catalogue__item">
          <Link to={`${basePath}/${e.name}`} data-testid="catalogue-entry" data-entity={e.name}>
            <strong>{e.pluralLabel}</strong>
            {e.description && <span>{e.description}</span>}
          </Link>
        </li>
      ))}
    </ul>
  );
}
