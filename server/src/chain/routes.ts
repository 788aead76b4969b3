import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../../engine/src/index';
import type { Store } from '../store/types';
import { createHttpAnchor } from './adapter';
import { anchorAnswer, verifyAnswer } from './schemas';
import { ChainService } from './service';
import { chainSettingsOf } from './settings';

/** Who may read the ledger's state and anchor it: the blockchain sync logs' key, or monitoring. */
const ACCESS = ['Sync Logs', 'Monitoring'];

/** The tamper-evident ledger: verify every chain, anchor on demand, and anchor periodically. */
export async function chainRoutes(app: FastifyInstance, opts: { registry: Registry; store: Store; dataDir: string; anchorUrl?: string }): Promise<void> {
  const settings = chainSettingsOf(opts.registry);
  if (!settings) return;
  const service = new ChainService(opts.store, settings, opts.anchorUrl ? createHttpAnchor(opts.anchorUrl) : null, { dataDir: opts.dataDir });
  app.addHook('onReady', async () => service.start((e) => app.log.error({ err: e }, 'periodic anchoring failed')));
  app.addHook('onClose', async () => service.stop());

  app.get('/api/ledger/verify', {
    config: { access: ACCESS },
    schema: { tags: ['Ledger'], summary: 'Walks every account\'s hash chain and its events; each account\'s first problem, with the event named', response: verifyAnswer },
  }, async () => service.verify());

  app.post('/api/ledger/anchor', {
    config: { access: ACCESS },
    schema: { tags: ['Ledger'], summary: 'Anchors each account\'s entries since its last anchoring now; the anchorings recorded', response: anchorAnswer },
  }, async () => ({ data: await service.anchorAll('demand') }));
}
