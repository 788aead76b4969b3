import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { localize, masterDataEntities, type Registry } from '../../../engine/src/index';
import { exportCsv } from '../masterdata/exportCsv';
import type { Store } from '../store/types';
import { requestLang } from './masterdata';

const exportQuery = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 200 },
    sort: { type: 'string', maxLength: 200, pattern: '^-?[A-Za-z0-9_.-]+(,-?[A-Za-z0-9_.-]+)*$' },
    state: { type: 'integer', enum: [1, 3] },
    columns: { type: 'string', maxLength: 2000, pattern: '^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$', description: 'List columns to export, comma-separated; all by default.' },
  },
} as const;

/**
 * The export with its header and first slice already read: whatever the query does wrong
 * fails here, as an error answer, instead of cutting short a 200 whose headers are sent.
 */
async function started(csv: AsyncGenerator<string>): Promise<AsyncGenerator<string>> {
  const head: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await csv.next();
    if (r.done) break;
    head.push(r.value);
  }
  return (async function* () {
    yield head.join('');
    yield* csv;
  })();
}

/**
 * `GET /api/v3/masterdata/:entity/export.csv`: the list's current filter across all pages,
 * streamed from the store a page at a time, headed by the column labels in the caller's language.
 * One static route per entity, so it wins over `/:entity/:id`.
 */
export async function masterDataExportRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store }): Promise<void> {
  for (const def of masterDataEntities(opts.registry)) {
    app.get(`/api/v3/masterdata/${def.name}/export.csv`, {
      config: { access: def.access },
      schema: { tags: [localize(def.pluralLabel)], summary: `Export ${def.name} as CSV (all pages of the filter)`, querystring: exportQuery, produces: ['text/csv'] },
    }, async (request, reply) => {
      const query = request.query as { q?: string; sort?: string; state?: number; columns?: string };
      // Unknown columns and sort paths fail with a 400 before the stream starts (started).
      const body = await started(exportCsv(opts.registry, opts.store, def, query, requestLang(request)));
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${def.name}.csv"`);
      reply.header('cache-control', 'no-store');
      return reply.send(Readable.from(body));
    });
  }
}
