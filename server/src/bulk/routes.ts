import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { keysFor } from '../ibc/operationKeys';
import { verifyTruckAnswer, verifyTruckBody } from './schemas';
import { BulkService } from './service';

/** Bulk logistics beyond the generic operation routes: the truck mapping check. */
export async function bulkRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store }): Promise<void> {
  const service = new BulkService(opts.registry, opts.store);
  const access = keysFor(opts.registry, ['Bulk Deliveries'], ['verifyTruckMapping']);
  app.post('/api/v3/bulk/verify-truck', {
    config: { access },
    schema: { tags: ['Bulk'], summary: 'Checks that a truck and an ISO tank are registered (verifyTruckMapping)', body: verifyTruckBody, response: verifyTruckAnswer },
  }, async (request) => service.verifyTruck(request.body as { truckNo: string; isoTankLicense: string }));
}
