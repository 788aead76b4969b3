import { createElement, lazy, type ComponentType } from 'react';

/**
 * React.lazy plus a preload: once the module is loaded, the component renders at once
 * instead of suspending (React holds a revealed Suspense boundary back for up to 300 ms).
 */
export function lazyWithPreload<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<unknown> | undefined;
  const load = () => (pending ??= factory().then((m) => {
    loaded = m.default;
    return m;
  }));
  const Lazy = lazy(() => load() as Promise<{ default: ComponentType<P> }>);
  function Preloadable(props: P) {
    return loaded ? createElement(loaded, props) : createElement(Lazy, props);
  }
  return Object.assign(Preloadable, { preload: load });
}
