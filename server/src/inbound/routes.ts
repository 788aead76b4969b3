import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/types';
import { inboundAnswer, inboundBody } from './schemas';
import { INBOUND_ACCESS, recordInbound, type InboundMessage } from './service';

/** An integration hands over a message it received (docs/api.md "Inbound messages"); the report get_inbound_messages lists them. */
export async function inboundRoutes(app: FastifyInstance, opts: { store: Store }): Promise<void> {
  app.post('/api/v3/inbound-messages', {
    config: { access: INBOUND_ACCESS },
    schema: { tags: ['Monitoring'], summary: 'Record a message the authority or another integration sent', body: inboundBody, response: inboundAnswer },
  }, async (request, reply) => reply.status(201).send(await recordInbound(opts.store, request.body as InboundMessage)));
}
