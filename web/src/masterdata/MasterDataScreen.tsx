import './masterdata.css';
import { Navigate, Route, Routes, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { localize } from '../../../engine/src/index';
import { Page } from '../components/Page';
import type { ScreenProps } from '../screens/types';
import { useShell } from '../shell/shellContext';
import { Catalogue } from './Catalogue';
import { mayOpenEntity } from './catalogue';
import { EntityScreens } from './EntityScreens';

function EntityRoute({ base }: { base: string }) {
  const { t } = useTranslation();
  const { entity = '' } = useParams();
  const { registry, principal, lang } = useShell();
  if (!mayOpenEntity(registry, principal, entity)) return <p role="alert" data-testid="entity-forbidden">{t('masterdata.unknownEntity', { entity })}</p>;
  return (
    <>
      <h2 className="tm-md-entity-title">{localize(registry.entities[entity].pluralLabel, lang)}</h2>
      <EntityScreens key={entity} entity={entity} basePath={`${base}/${entity}`} />
    </>
  );
}

/** `/masterdata?entity=<e>&id=<id>` (goTo's query form) opens that record's form; plain `/masterdata` the catalogue. */
function CatalogueRoute({ base }: { base: string }) {
  const [params] = useSearchParams();
  const entity = params.get('entity');
  const id = params.get('id');
  if (entity) return <Navigate replace to={`${base}/${encodeURIComponent(entity)}${id ? `/${encodeURIComponent(id)}` : ''}`} />;
  return <Catalogue basePath={base} />;
}

/** `/masterdata`: the catalogue, and under `/masterdata/:entity` each entity's list and form. */
export default function MasterDataScreen({ route }: ScreenProps) {
  const base = route?.path ?? '/masterdata';
  return (
    <Page title={route?.name ?? ''} icon={route?.icon}>
      <Routes>
        <Route index element={<CatalogueRoute base={base} />} />
        <Route path=":entity/*" element={<EntityRoute base={base} />} />
      </Routes>
    </Page>
  );
}
