/** Fixed reference data of the demo: real places and products of the Argentine agrochemical trade. */

export const CITIES = [
  { city: 'Rosario', province: 'Santa Fe', post: '2000', lat: -32.9442, lng: -60.6505 },
  { city: 'Córdoba', province: 'Córdoba', post: '5000', lat: -31.4201, lng: -64.1888 },
  { city: 'Pergamino', province: 'Buenos Aires', post: '2700', lat: -33.8895, lng: -60.5736 },
  { city: 'Venado Tuerto', province: 'Santa Fe', post: '2600', lat: -33.7456, lng: -61.9688 },
  { city: 'Río Cuarto', province: 'Córdoba', post: '5800', lat: -33.1232, lng: -64.3493 },
  { city: 'Junín', province: 'Buenos Aires', post: '6000', lat: -34.5853, lng: -60.9589 },
  { city: 'Zárate', province: 'Buenos Aires', post: '2800', lat: -34.0981, lng: -59.0286 },
  { city: 'Paraná', province: 'Entre Ríos', post: '3100', lat: -31.7413, lng: -60.5115 },
  { city: 'San Miguel de Tucumán', province: 'Tucumán', post: '4000', lat: -26.8083, lng: -65.2176 },
  { city: 'Salta', province: 'Salta', post: '4400', lat: -24.7821, lng: -65.4232 },
  { city: 'Santa Rosa', province: 'La Pampa', post: '6300', lat: -36.6167, lng: -64.2833 },
  { city: 'Bahía Blanca', province: 'Buenos Aires', post: '8000', lat: -38.7183, lng: -62.2663 },
];

export const STREETS = ['Av. Pellegrini', 'Bv. Oroño', 'Av. Colón', 'San Martín', 'Belgrano', 'Ruta Nacional 33', 'Ruta Provincial 8', 'Av. Rivadavia', 'Mitre', 'Sarmiento'];

export const COUNTRIES = [
  ['Argentina', 'AR', 32], ['Brasil', 'BR', 76], ['Uruguay', 'UY', 858], ['Paraguay', 'PY', 600], ['Chile', 'CL', 152],
  ['Bolivia', 'BO', 68], ['Estados Unidos', 'US', 840], ['China', 'CN', 156], ['India', 'IN', 356], ['Alemania', 'DE', 276],
] as const;

export const UNITS = [
  ['Kilogramo', 'KG', 1], ['Litro', 'L', 2], ['Gramo', 'G', 3], ['Mililitro', 'ML', 4], ['Tonelada', 'TO', 5], ['Unidad', 'UN', 6], ['Metro cúbico', 'M3', 7],
] as const;

export const PACKAGES = [
  ['IBC 1000 L', 71], ['Granel', 1], ['Tambor 200 L', 12], ['Bidón 20 L', 8], ['Bidón 10 L', 7], ['Bolsa 25 kg', 20],
] as const;

export const CATEGORIES = [
  ['Herbicidas', '#2e7d32'], ['Insecticidas', '#c62828'], ['Fungicidas', '#6a1b9a'], ['Fertilizantes', '#ef6c00'],
  ['Coadyuvantes', '#0277bd'], ['Principios activos', '#37474f'], ['Curasemillas', '#795548'],
] as const;

export const ACTIVE_INGREDIENTS = [
  'Glifosato', 'Atrazina', '2,4-D', 'Imazetapir', 'Cletodim', 'Clorpirifós', 'Azoxistrobina', 'Tebuconazol',
  'Metsulfurón metil', 'Dicamba', 'S-metolacloro', 'Cipermetrina', 'Lambdacialotrina', 'Fomesafen', 'Haloxifop',
];

export const BRANDS = ['Rizo', 'Pampero', 'Litoral', 'Campo Sur', 'Surco', 'Cosecha', 'Horizonte', 'Espiga', 'Trébol', 'Ceibo'];
export const FORMULATIONS = ['SL', 'EC', 'SC', 'WG', 'WP', 'SE'];

export const COMPANY_WORDS = ['Agro', 'Campo', 'Semillas', 'Insumos', 'Cereales', 'Química', 'Agroservicios', 'Transportes', 'Logística', 'Cooperativa'];
export const COMPANY_PLACES = ['del Litoral', 'Pampeana', 'del Sur', 'Norte', 'del Centro', 'Andina', 'Rioplatense', 'del Oeste', 'Mesopotámica', 'Patagónica'];
export const COMPANY_FORMS = ['S.A.', 'S.R.L.', 'S.A.S.', 'Coop. Ltda.'];
export const COMPANY_TYPES = ['producer', 'distributor', 'customer', 'carrier'] as const;

/** A CUIT with a valid check digit (modulo 11), so demo data passes real-world checks. */
export function cuit(prefix: 20 | 23 | 30 | 33, n: number): string {
  const body = `${prefix}${String(n % 100_000_000).padStart(8, '0')}`;
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  const sum = body.split('').reduce((acc, d, i) => acc + Number(d) * weights[i], 0);
  let check = 11 - (sum % 11);
  if (check === 11) check = 0;
  if (check === 10) return cuit(prefix, n + 1);
  return `${body.slice(0, 2)}-${body.slice(2)}-${check}`;
}
