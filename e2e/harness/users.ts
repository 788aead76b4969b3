/** The people the end-to-end suite signs in as (seeded by e2e/harness/seed.ts). */
export const PASSWORD = 'E2e-user-2026';

export const USERS = {
  admin: { email: 'admin@e2e.local', password: 'E2e-admin-2026', name: 'Platform Admin', initials: 'PA' },
  limited: { email: 'lena.limited@e2e.local', password: PASSWORD, name: 'Lena Limited', access: ['Dashboards', 'Reports'] },
  disabled: { email: 'disabled@e2e.local', password: PASSWORD, name: 'Dora Disabled' },
  ssoOnly: { email: 'sso.only@e2e.local', password: PASSWORD, name: 'Sam Single' },
  outsider: { email: 'someone@outside.test', password: PASSWORD, name: 'Otto Outsider' },
  expired: { email: 'ex.pired@e2e.local', password: PASSWORD, name: 'Eva Expired' },
  noName: { email: 'maria.jose-perez@e2e.local', password: PASSWORD, name: '', initials: 'MJ' },
  spanish: { email: 'sofia.sanchez@e2e.local', password: PASSWORD, name: 'Sofía Sánchez', language: 'es', access: ['Dashboards', 'Imports'] },
  reset: { email: 'reset.me@e2e.local', password: PASSWORD, name: 'Rita Reset' },
  // Return Requests: the one screen where the warehouse dropdown is hidden (SPEC 2.1), opened by its own key.
  warehouse: { email: 'wanda.warehouse@e2e.local', password: PASSWORD, name: 'Wanda Warehouse', access: ['Dashboards', 'Imports', 'Deliveries', 'Reports', 'ibcTraceability', 'Return Requests'] },
} as const;

/** Warehouse groups of the warehouse user, in the order the server lists them. */
export const GROUPS = [
  { name: 'North Hub', description: 'Deposits of the north', access: ['Imports', 'Deliveries', 'Reports', 'ibcTraceability', 'Return Requests'], warehouses: ['Rosario Norte', 'San Lorenzo'] },
  { name: 'South Hub', description: 'Deposits of the south', access: ['Deliveries', 'Reports'], warehouses: ['Bahía Blanca'] },
] as const;

/**
 * The operations story's own people (e2e/operations.e2e.ts, on its own server): per language a
 * plant's staff member and a distributor. The distributor holds Deliveries as well as Reception:
 * the delivery workflow's list key is Deliveries until receivers read deliveries by Reception alone.
 * Both hold Master Data: the forms' reference pickers (deposits, materials) read master data
 * with that key, which an operations user would otherwise lack.
 */
export const OPERATION_GROUPS = {
  plant: { name: 'Planta Zárate', access: ['Master Data', 'Imports', 'Product Declaration', 'Deliveries', 'productTraceability'], warehouse: 'Depósito Zárate' },
  distributor: { name: 'Distribuidora Pergamino', access: ['Master Data', 'Reception', 'Active Receptions', 'Deliveries', 'productTraceability'], warehouse: 'Depósito Pergamino' },
} as const;

export const OPERATION_USERS = {
  en: {
    staff: { email: 'paula.plant@e2e.local', password: PASSWORD, name: 'Paula Plant', language: 'en', group: 'plant' },
    distributor: { email: 'diego.distributor@e2e.local', password: PASSWORD, name: 'Diego Distributor', language: 'en', group: 'distributor' },
  },
  es: {
    staff: { email: 'pablo.planta@e2e.local', password: PASSWORD, name: 'Pablo Planta', language: 'es', group: 'plant' },
    distributor: { email: 'dora.distribuidora@e2e.local', password: PASSWORD, name: 'Dora Distribuidora', language: 'es', group: 'distributor' },
  },
} as const;

/**
 * The IBC story's people (e2e/ibc.e2e.ts, on its own server): the filler's staff, who prepare,
 * ship, take back and check IBCs at the filling plant's deposit, and a customer who receives
 * IBCs and asks for their return at its own deposit. Both hold Master Data for the forms'
 * reference pickers. The Spanish and French readers look at the fleet in their language.
 */
export const IBC_GROUPS = {
  filler: {
    name: 'Planta Envasado IBC', warehouse: 'Depósito Envasado Campana',
    access: ['Master Data', 'ibcTraceability', 'IBC Inventory', 'IBC Batch Preparation', 'IBC Deliveries', 'Return Requests', 'IBC Returns', 'Perform QC'],
  },
  customer: {
    name: 'Cliente Campo Verde', warehouse: 'Depósito Campo Verde',
    access: ['Master Data', 'ibcTraceability', 'IBC Reception', 'Return Requests'],
  },
} as const;

export const IBC_USERS = {
  staff: { email: 'ivan.envasado@e2e.local', password: PASSWORD, name: 'Iván Envasado', language: 'en', group: 'filler' },
  customer: { email: 'carla.campo@e2e.local', password: PASSWORD, name: 'Carla Campo', language: 'en', group: 'customer' },
  readerEs: { email: 'elena.flota@e2e.local', password: PASSWORD, name: 'Elena Flota', language: 'es', group: 'filler' },
  readerFr: { email: 'francois.flotte@e2e.local', password: PASSWORD, name: 'François Flotte', language: 'fr', group: 'filler' },
} as const;

/**
 * The mobile story's people (e2e/mobileStory.e2e.ts, on its own server seeded with the IBC
 * story's data): each in a warehouse group of their own deposit whose access is their mobile
 * keys (plus Master Data, for the reference pickers). The yard and the quality inspector work at
 * the filler's deposit (two devices in the conflict), the transporter delivers to the customer's
 * deposit on the customer's behalf, the customer's receiver asks for the return.
 */
export const MOBILE_GROUPS = {
  yard: { name: 'Patio Campana', warehouse: 'filler', access: ['Master Data', 'ibc.mobile.ibcbatchpreparation', 'ibc.mobile.delivery', 'ibc.mobile.returns', 'ibc.mobile.performqc', 'ibc.mobile.maplocation'] },
  quality: { name: 'Calidad Campana', warehouse: 'filler', access: ['Master Data', 'ibc.mobile.performqc'] },
  transporter: { name: 'Transportes Ruta 9', warehouse: 'customer', access: ['Master Data', 'ibc.mobile.transporterreception'] },
  receiver: { name: 'Recepción Campo Verde', warehouse: 'customer', access: ['Master Data', 'ibc.mobile.customerreturnrequest'] },
} as const;

export const MOBILE_USERS = {
  yard: { email: 'yara.patio@e2e.local', password: PASSWORD, name: 'Yara Patio', language: 'en', group: 'yard' },
  quality: { email: 'quentin.calidad@e2e.local', password: PASSWORD, name: 'Quentin Calidad', language: 'en', group: 'quality' },
  transporter: { email: 'tomas.ruta@e2e.local', password: PASSWORD, name: 'Tomás Ruta', language: 'en', group: 'transporter' },
  receiver: { email: 'rocio.campo@e2e.local', password: PASSWORD, name: 'Rocío Campo', language: 'en', group: 'receiver' },
} as const;
