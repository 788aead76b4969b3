import type { RouteEntry } from '../../../engine/src/index';
import { FeatureFrame } from '../frame/FeatureFrame';
import { fixedScreen, generatedScreen } from '../screens/registry';

/** One route's screen: external features in the frame, the rest from the screen registries. */
export function RouteScreen({ route }: { route: RouteEntry }) {
  if (route.render === 'external') return <FeatureFrame key={route.id} route={route} />;
  const Screen = route.render === 'generated' ? generatedScreen(route.screen) : fixedScreen(route.screen);
  return <Screen route={route} />;
}
