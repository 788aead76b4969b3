import { useTranslation } from 'react-i18next';
import { Dropdown } from 'primereact/dropdown';
import type { RouteEntry } from '../../../engine/src/index';
import { useFrame } from '../frame/frameContext';
import { useWarehouse } from './warehouseContext';

/** Never shown on this route (SPEC 2.1). */
const HIDDEN_ON = '/return-requests';

/**
 * SPEC 2.1 and 4: the warehouse group selector. On a framed feature it waits for the frame's
 * readiness; a change is sent with the whole list to the frame, saved, and the page reloads.
 */
export function WarehouseSelector({ route }: { route: RouteEntry | undefined }) {
  const { t } = useTranslation();
  const { groups, selected, select } = useWarehouse();
  const frame = useFrame();
  const waitsForFrame = route?.render === 'external';
  if (!groups || groups.length === 0 || route?.path === HIDDEN_ON || (waitsForFrame && !frame.ready)) return null;
  return (
    <Dropdown
      className="tm-warehouse" inputId="tm-warehouse" value={selected?.name ?? null} placeholder={t('warehouse.placeholder')}
      options={groups.map((g) => ({ label: g.name, value: g.name, title: g.description }))}
      aria-label={t('warehouse.label')} dropdownIcon="pi pi-chevron-down" data-testid="warehouse-selector"
      // The native select PrimeReact keeps for forms is a duplicate of the combobox: hide it from assistive technology.
      pt={{ select: { 'aria-hidden': true } as Record<string, unknown> }}
      valueTemplate={(option: { label: string } | null, props) => (
        <span className="tm-warehouse__value">
          <i className="pi pi-warehouse" aria-hidden="true" />
          {option ? option.label : props.placeholder}
        </span>
      )}
      onChange={(e) => {
        const group = groups.find((g) => g.name === e.value);
        if (!group || group.name === selected?.name) return;
        frame.post({ type: 'parentFrameData', payload: { warehouse: group, warehouseList: groups } });
        select(group.name);
      }}
    />
  );
}
