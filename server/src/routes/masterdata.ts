import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formOf, localize, masterDataEntities, toJsonSchema, type Lang, type Registry } from '../../../engine/src/index';
import { ApiError } from '../apiError';
import type { WriteHooks } from '../records/writeHooks';
import { MasterDataService } from '../masterdata/service';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type ListQuery } from '../../../engine/src/index';
import { listTitles } from '../masterdata/references';
import type { Store } from '../store/types';
import { pickerReaders } from '../workflows/readers';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** JSON Schema shown in the OpenAPI document for a body the engine validates itself. */
    docBody?: Record<string, unknown>;
  }
}

const idParam = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' } },
} as const;

const listQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200, description: 'Case-insensitive search over the searchable fields, from 2 characters.' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    sort: { type: 'string', maxLength: 200, pattern: '^-?[A-Za-z0-9_.-]+(,-?[A-Za-z0-9_.-]+)*$', description: 'Fields, comma-separated; a leading - sorts descending.' },
    state: { type: 'integer', enum: [1, 3], description: '1 Active, 3 Disabled.' },
    titles: {
      type: 'boolean', default: false,
      description: 'Also answer `titles`: the title of every record a reference column of the page points to, by target entity then id (one lookup per target entity).',
    },
  },
} as const;

/** The list answer, for the OpenAPI document (records are the entity's own shape, documented with its POST body). */
export const listAnswer = {
  200: {
    type: 'object',
    properties: {
      data: { type: 'array', items: { type: 'object', additionalProperties: true } },
      total: { type: 'integer' },
      page: { type: 'integer' },
      pageSize: { type: 'integer' },
      titles: {
        type: 'object',
        description: 'With `titles=true`: `{"<target entity>": {"<id>": "<title>"}}` for the references on this page; an id naming no record is absent.',
        additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
  },
} as const;

const hardQuery = { type: 'object', properties: { hard: { type: 'boolean', default: false } } } as const;

export function requestLang(request: FastifyRequest): Lang {
  const h = String(request.headers['accept-language'] ?? '').slice(0, 2).toLowerCase();
  return h === 'es' || h === 'fr' ? h : 'en';
}

/**
 * The master-data API: six routes per entity, generated from the definitions, so the
 * OpenAPI document shows each entity's own body while the handlers stay generic.
 */
export async function masterDataRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; hooks?: WriteHooks }): Promise<void> {
  const service = new MasterDataService(opts.registry, opts.store, opts.hooks);
  const actorOf = (request: FastifyRequest) => ({
    userId: request.principal?.userId ?? 'anonymous',
    access: request.principal?.access ?? [],
  });

  for (const def of masterDataEntities(opts.registry)) {
    const name = def.name;
    const base = `/api/v3/masterdata/${name}`;
    const access = def.access;
    // Reading: also whoever records an operation that points to this entity (its pickers).
    const pickers = pickerReaders(opts.registry, name).filter((k) => k !== access);
    const readers = pickers.length ? [access, ...pickers] : access;
    const tags = [localize(def.pluralLabel)];
    const docBody = toJsonSchema(formOf(opts.registry, name)!);
    delete docBody.$schema;

    app.get(base, { config: { access: readers }, schema: { tags, summary: `List ${name}`, querystring: listQuery, response: listAnswer } }, async (request) => {
      const query = request.query as ListQuery & { titles?: boolean };
      const page = await service.list(name, query);
      return query.titles ? { ...page, titles: await listTitles(opts.registry, opts.store, def, page.data, requestLang(request)) } : page;
    });
    app.get(`${base}/:id`, { config: { access: readers }, schema: { tags, summary: `Read one ${name}`, params: idParam } }, async (request) =>
      service.get(name, (request.params as { id: string }).id));
    app.post(base, { config: { access, docBody }, schema: { tags, summary: `Create a ${name}` } }, async (request, reply) =>
      reply.status(201).send(await service.create(name, request.body, actorOf(request))));
    app.put(`${base}/:id`, { config: { access, docBody }, schema: { tags, summary: `Replace a ${name}`, params: idParam } }, async (request) =>
      service.update(name, (request.params as { id: string }).id, request.body, actorOf(request)));
    app.delete(`${base}/:id`, { config: { access }, schema: { tags, summary: `Disable a ${name} (state 3); hard=true deletes it (admin only)`, params: idParam, querystring: hardQuery } }, async (request) =>
      service.remove(name, (request.params as { id: string }).id, (request.query as { hard: boolean }).hard, actorOf(request)));
    app.post(`${base}/validate`, { config: { access, docBody }, schema: { tags, summary: `Validate a ${name} without saving (the engine's result, unchanged)` } }, async (request) =>
      service.validate(name, request.body, requestLang(request)));
  }

  // Unknown entities answer 404 with the entity named, rather than a bare route miss; so do
  // operations, whose records change only through their workflow (/api/v3/operations).
  const unknown = async (request: FastifyRequest) => {
    throw new ApiError('UNKNOWN_ENTITY', { entity: (request.params as { entity: string }).entity.slice(0, 60) });
  };
  app.get('/api/v3/masterdata/:entity', { config: { access: null }, schema: { hide: true } }, unknown);
  app.get('/api/v3/masterdata/:entity/:id', { config: { access: null }, schema: { hide: true } }, unknown);
  app.post('/api/v3/masterdata/:entity', { config: { access: null }, schema: { hide: true } }, unknown);
  app.put('/api/v3/masterdata/:entity/:id', { config: { access: null }, schema: { hide: true } }, unknown);
  app.delete('/api/v3/masterdata/:entity/:id', { config: { access: null }, schema: { hide: true } }, unknown);
  app.post('/api/v3/masterdata/:entity/validate', { config: { access: null }, schema: { hide: true } }, unknown);
}
