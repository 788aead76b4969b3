import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { InputText } from 'primereact/inputtext';
import { useMasterData } from '../masterdata/useMasterData';
import { catalogue } from './catalogue';

/** /reports: the reports this user may run, by category, with a search box; each opens `#/<key>`. */
export function Catalogue() {
  const { t } = useTranslation();
  const { registry, principal, lang } = useMasterData();
  const [search, setSearch] = useState('');
  const groups = useMemo(() => catalogue(registry, principal, lang, search), [registry, principal, lang, search]);
  return (
    <section className="tm-rep-catalogue" data-testid="report-catalogue">
      <InputText type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('reports.search')} aria-label={t('reports.search')} data-testid="report-search" />
      {groups.length === 0 && <p className="tm-empty__text" data-testid="report-catalogue-empty">{t(search ? 'reports.catalogue.noMatch' : 'reports.catalogue.none')}</p>}
      {groups.map((g) => (
        <section key={g.category} className="tm-rep-catalogue__group" data-testid="report-category" data-category={g.category}>
          <h2>{t(`reports.category.${g.category}`)}</h2>
          <ul>
            {g.items.map((i) => (
              <li key={i.key}>
                <Link to={`/${encodeURIComponent(i.key)}`} data-testid="report-entry" data-key={i.key}>{i.label}</Link>
                {i.description && <p>{i.description}</p>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
