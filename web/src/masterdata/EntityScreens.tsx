import type { ReactNode } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useToast } from '../toasts/toast';
import type { Rec } from './api';
import { useMasterData } from './useMasterData';
import { recordTitle } from '../../../engine/src/list/index';
import { EntityForm } from './EntityForm';
import { EntityList } from './EntityList';

export interface EntityScreensProps {
  entity: string;
  /** The list's path; the form lives at `${basePath}/new` and `${basePath}/:id`. */
  basePath: string;
  rowActions?: (record: Rec, reload: () => void) => ReactNode;
  /** Runs after a record is created (users: the invitation mail). */
  afterCreate?: (record: Rec) => Promise<unknown>;
}

function FormRoute({ entity, basePath, afterCreate }: EntityScreensProps) {
  const { id } = useParams();
  const navigate = useNavigate();
  const editing = id !== undefined && id !== 'new' ? id : undefined;
  const { t } = useTranslation();
  const toast = useToast();
  const { registry, lang } = useMasterData();
  const saved = (r: Rec) => {
    const title = recordTitle(registry.entities[entity], r, lang);
    toast({ severity: 'success', summary: t('masterdata.saved.summary'), detail: t(editing ? 'masterdata.saved.updated' : 'masterdata.saved.created', { title }) });
  };
  return (
    <EntityForm
      entity={entity}
      id={editing}
      onCancel={() => navigate(basePath)}
      onSaved={(r) => { saved(r); void (editing || !afterCreate ? Promise.resolve() : afterCreate(r).catch(() => undefined)).then(() => navigate(basePath)); }}
    />
  );
}

/** An entity's list and form under one path, as nested routes relative to the feature route. */
export function EntityScreens(props: EntityScreensProps) {
  return (
    <Routes>
      <Route index element={<EntityList entity={props.entity} basePath={props.basePath} rowActions={props.rowActions} />} />
      <Route path=":id" element={<FormRoute {...props} />} />
    </Routes>
  );
}
