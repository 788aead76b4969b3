import type { RouteEntry } from '../../../engine/src/index';

/** What every routed screen receives; screens shown before sign-in get no route entry. */
export interface ScreenProps {
  route?: RouteEntry;
}
