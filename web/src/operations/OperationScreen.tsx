import './operations.css';
import { useEffect, useMemo } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { WarehouseGroup } from '../../../engine/src/index';
import { localize } from '../../../engine/src/index';
import { useServices } from '../app/services';
import type { GoToPayload } from '../frame/messages';
import { EntityForm } from '../masterdata/EntityForm';
import type { Rec } from '../masterdata/api';
import { useMasterData } from '../masterdata/useMasterData';
import type { RecordStore } from '../masterdata/useEntityForm';
import { valueAt, type BatchScope } from '../masterdata/widgets/batchLogic';
import type { ContainerScope } from '../masterdata/widgets/containerLogic';
import { useToast } from '../toasts/toast';
import { ibcApi, operationsApi } from './api';
import { OperationContext, useOperation } from './context';
import { formOmissions, materialPathOf, stockSourceField, type OperationView } from './model';
import { OperationDetail } from './OperationDetail';
import { OperationList } from './OperationList';

/** The create / edit form: the entity's generated form, saved through the operation routes, with the batch picker's scope. */
function OperationForm() {
  const { id } = useParams();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const toast = useToast();
  const { view, ops, ibc } = useOperation();
  const { registry } = useMasterData();
  const wf = view.workflow.name;
  const store = useMemo<RecordStore>(() => ({
    get: (_e, rid) => ops.get(wf, rid).then((a) => a.record),
    create: (_e, v) => ops.create(wf, v),
    update: (_e, rid, v) => ops.update(wf, rid, v),
  }), [ops, wf]);
  const context = useMemo<{ batches: BatchScope; containers: ContainerScope }>(() => {
    const depositField = stockSourceField(view);
    return {
      batches: {
        scope: (path, value) => {
          const materialPath = materialPathOf(view.workflow, path);
          if (!materialPath) return null;
          const material = valueAt(value, materialPath);
          const deposit = valueAt(value, depositField.split('.'));
          return { material: typeof material === 'string' ? material : '', deposit: typeof deposit === 'string' ? deposit : '' };
        },
        batches: (material, deposit) => ops.batches({ material, deposit: deposit || undefined }).then((a) => (Array.isArray(a) ? a : a.data)),
      },
      containers: { lookup: ibc.lookup },
    };
  }, [view, ops, ibc]);
  const omit = useMemo(() => formOmissions(view, registry.entities[view.entity]?.serverFields ?? []), [view, registry]);
  const editing = id !== undefined && id !== 'new' ? id : undefined;
  return (
    <EntityForm entity={view.entity} id={editing} store={store} context={context} omit={omit}
      onCancel={() => navigate(editing ? `/${encodeURIComponent(editing)}` : '/')}
      onSaved={(r: Rec) => {
        toast({ severity: 'success', summary: t('masterdata.saved.summary'), detail: t(editing ? 'operations.saved.updated' : 'operations.saved.created') });
        navigate(`/${encodeURIComponent(String(r.id))}`);
      }} />
  );
}

/** A deep link the shell hands on as `?id=` (goTo with a query) opens that record. */
function DeepLink() {
  const navigate = useNavigate();
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get('id');
    if (id && (window.location.hash === '' || window.location.hash === '#/')) navigate(`/${encodeURIComponent(id)}`, { replace: true });
  }, [navigate]);
  return null;
}

export interface OperationScreenProps {
  view: OperationView;
  warehouse: WarehouseGroup | null;
  warehouseName: string | null;
  goTo: (payload: GoToPayload) => void;
}

/** Every product-traceability feature, drawn from its workflow: the list, the form and a record's detail as in-frame routes. */
export default function OperationScreen({ view, warehouse, warehouseName, goTo }: OperationScreenProps) {
  const { api } = useServices();
  const { lang } = useMasterData();
  const ops = useMemo(() => operationsApi(api), [api]);
  const ibc = useMemo(() => ibcApi(api), [api]);
  const value = useMemo(() => ({ view, ops, ibc, warehouse, warehouseName, goTo }), [view, ops, ibc, warehouse, warehouseName, goTo]);
  return (
    <OperationContext.Provider value={value}>
      <main className="tm-guest tm-op" data-testid="operation-screen" data-feature={view.feature.id} data-workflow={view.workflow.name}>
        <h1 className="tm-op__title">{localize(view.feature.name, lang)}</h1>
        <DeepLink />
        <Routes>
          <Route index element={<OperationList />} />
          {view.create && <Route path="new" element={<OperationForm />} />}
          <Route path=":id/edit" element={<OperationForm />} />
          <Route path=":id" element={<OperationDetail />} />
        </Routes>
      </main>
    </OperationContext.Provider>
  );
}
