import type { Store } from '../store/types';
import type { ReportPlan } from '../../../engine/src/index';

/** The total of a plan: store.count when the plan allows it, else its count pipeline. */
export async function planTotal(store: Pick<Store, 'count' | 'aggregate'>, plan: ReportPlan): Promise<number> {
  if ('filter' in plan.count) return store.count(plan.collection, plan.count.filter);
  const [first] = await store.aggregate(plan.collection, plan.count.pipeline);
  return Number(first?.n ?? 0);
}
