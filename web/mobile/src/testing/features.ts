import type { FeatureDef } from '../types';

/** Feature definitions shaped like GET /api/v3/mobile/app's, for tests (a tiny fake of the server's). */
export const QC: FeatureDef = {
  id: 'ibc.performqc', key: 'ibc.mobile.performqc', icon: 'qc', workflow: 'ibc', scan: 'ibc',
  label: { en: 'Perform QC', es: 'Realizar control de calidad', fr: 'Effectuer le contrôle qualité' },
  hint: { en: 'Scan a returned IBC', es: 'Escanee un IBC devuelto', fr: 'Scannez un IBC retourné' },
  list: { states: ['returned', 'in_qc'], title: 'serial_number', subtitle: ['material_type'] },
  actions: [
    { transition: 'startQC', fields: [] },
    { transition: 'passQC', fields: ['qcDate', 'qcResult', 'inspection'] },
    { transition: 'block', fields: ['qcDate', 'qcResult'], comment: 'required' },
  ],
  fields: {
    type: 'object',
    required: ['qcDate'],
    properties: {
      qcDate: { type: 'string', format: 'date', title: { en: 'QC date', es: 'Fecha de control', fr: 'Date du contrôle' } },
      qcResult: { type: 'string', enum: ['ok', 'damaged'], title: { en: 'Result', es: 'Resultado', fr: 'Résultat' } },
      inspection: { type: 'boolean', title: { en: 'Inspection', es: 'Inspección', fr: 'Inspection' } },
    },
  },
  transitions: {
    startQC: { label: { en: 'Start QC', es: 'Iniciar control', fr: 'Commencer le contrôle' }, from: ['returned', 'in_stock_empty'], to: 'in_qc' },
    passQC: { label: { en: 'Pass QC', es: 'Aprobar control', fr: 'Valider le contrôle' }, from: ['in_qc', 'quarantine'], to: 'in_stock_empty' },
    block: { label: { en: 'Block', es: 'Bloquear', fr: 'Bloquer' }, from: ['in_qc', 'quarantine'], to: 'blocked' },
  },
};

export const MAP_LOCATION: FeatureDef = {
  id: 'ibc.maplocation', key: 'ibc.mobile.maplocation', icon: 'map', workflow: 'ibc', scan: 'ibc',
  label: { en: 'Map Location', es: 'Ubicación en el mapa', fr: 'Emplacement sur la carte' },
  list: { states: ['in_stock_empty', 'at_customer'], title: 'serial_number', subtitle: ['status', 'deposit_id'], map: { lat: 'location.lat', lng: 'location.lng' } },
  actions: [{ transition: 'mapLocation', fields: ['location.lat', 'location.lng'] }],
  fields: {
    type: 'object',
    properties: {
      location: {
        type: 'object', required: ['lat', 'lng'],
        properties: { lat: { type: 'number', title: { en: 'Latitude', es: 'Latitud', fr: 'Latitude' } }, lng: { type: 'number', title: { en: 'Longitude', es: 'Longitud', fr: 'Longitude' } } },
      },
    },
  },
  transitions: { mapLocation: { label: { en: 'Map location', es: 'Ubicar', fr: 'Localiser' }, from: ['in_stock_empty', 'at_customer'] } },
};

export const DISTRIBUTOR: FeatureDef = {
  id: 'ibc.distributordelivery', key: 'ibc.mobile.distributordelivery', icon: 'distributor', workflow: 'ibc_delivery',
  label: { en: 'IBC Delivery - Distributor', es: 'Entrega de IBC - Distribuidor', fr: 'Livraison d\'IBC - Distributeur' },
  list: { states: ['draft', 'confirmed'], title: 'deliveryNumber' },
  create: { fields: ['destination', 'quantity'] },
  initial: 'draft',
  actions: [{ transition: 'cancel', fields: [] }],
  fields: {
    type: 'object',
    properties: {
      destination: { type: 'string', 'x-ref': 'company_division', title: { en: 'Destination', es: 'Destino', fr: 'Destination' } },
      quantity: { type: 'integer', minimum: 1, title: { en: 'Quantity', es: 'Cantidad', fr: 'Quantité' } },
    },
  },
  transitions: { cancel: { label: { en: 'Cancel', es: 'Anular', fr: 'Annuler' }, from: ['draft', 'confirmed'], to: 'cancelled' } },
};

/** A create whose `containers` is an array of objects, shaped as the server sends ibc_batch_preparation's (its `ibc` reference derived from `ibcNumber`). */
export const BATCH: FeatureDef = {
  id: 'ibc.batchpreparation', key: 'ibc.mobile.batchpreparation', icon: 'batch', workflow: 'ibc_batch_preparation',
  label: { en: 'IBC Batch Preparation', es: 'Preparación de lote de IBC', fr: 'Préparation de lot d\'IBC' },
  create: { fields: ['batchDate', 'containers'] },
  actions: [],
  fields: {
    type: 'object',
    properties: {
      batchDate: { type: 'string', format: 'date', title: { en: 'Date', es: 'Fecha', fr: 'Date' } },
      containers: {
        type: 'array', title: { en: 'IBCs', es: 'IBC', fr: 'IBC' }, minItems: 1,
        items: {
          type: 'object', required: ['quantity', 'topSeal'],
          properties: {
            ibc: { type: ['string', 'number', 'object'], 'x-ref': 'ibc_container', title: 'IBC' },
            ibcNumber: { type: 'string', title: { en: 'IBC serial number', es: 'Número de serie del IBC', fr: 'Numéro de série de l\'IBC' } },
            quantity: { type: 'number', minimum: 0, title: { en: 'Quantity', es: 'Cantidad', fr: 'Quantité' } },
            topSeal: { type: 'string', title: { en: 'Top seal', es: 'Precinto superior', fr: 'Scellé supérieur' } },
            full: { type: 'boolean', title: { en: 'Full', es: 'Lleno', fr: 'Plein' } },
          },
        },
      },
    },
  },
  transitions: {},
};

/** A list whose subtitle holds the state, a reference, a field with options and a date, shaped as the server sends ibcReturns' (list fields in `fields`). */
export const RETURNS: FeatureDef = {
  id: 'ibcReturns', key: 'ibc.mobile.return', icon: 'return', workflow: 'ibc', scan: 'ibc',
  label: { en: 'IBC Returns', es: 'Devoluciones de IBC', fr: 'Retours d\'IBC' },
  list: { states: ['in_stock_empty', 'at_customer'], title: 'serial_number', subtitle: ['status', 'deposit_id', 'returnState', 'returnDate'] },
  actions: [],
  stateField: 'status',
  states: { in_stock_empty: { en: 'In stock, empty', es: 'En stock, vacío', fr: 'En stock, vide' }, at_customer: { en: 'At customer', es: 'En el cliente', fr: 'Chez le client' } },
  fields: {
    type: 'object',
    properties: {
      serial_number: { type: 'string', title: 'Serial number' },
      status: { type: 'string', oneOf: [{ const: 'in_stock_empty', title: 'in stock (option label)' }], title: 'Status' },
      deposit_id: { type: 'string', 'x-ref': 'company_division', title: { en: 'Deposit', es: 'Depósito', fr: 'Dépôt' } },
      returnState: { type: 'string', oneOf: [{ const: 'empty', title: { en: 'Empty', es: 'Vacío', fr: 'Vide' } }, { const: 'full', title: { en: 'Full', es: 'Lleno', fr: 'Plein' } }] },
      returnDate: { type: 'string', format: 'date', title: 'Return date' },
    },
  },
  transitions: {},
};
