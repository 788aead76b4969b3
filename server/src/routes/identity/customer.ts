import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../apiError';
import { warehouseGroupsFor } from '../../auth/warehouses';
import type { IdentityContext } from './context';

/**
 * The customer module's getGroups (SPEC 7): the warehouse selector's groups. Any signed-in
 * user may ask (access null): the answer holds only that user's own groups, and the selector
 * must work before any feature is opened, whatever keys the user has.
 */
export async function customerRoutes(app: FastifyInstance, ctx: IdentityContext): Promise<void> {
  app.get('/api/customer/groups', {
    config: { access: null },
    schema: { tags: ['Customer'], summary: 'Warehouse groups of the signed-in user with the company divisions they hold' },
  }, async (request) => {
    const p = request.principal!;
    const user = await ctx.store.get('user', p.userId);
    if (!user) throw new ApiError('UNAUTHENTICATED');
    const superadmin = p.access.includes(ctx.registry.access.superadmin);
    return { data: { wareHouses: await warehouseGroupsFor(ctx.store, user, superadmin) } };
  });
}
