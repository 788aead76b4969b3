import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenProps } from './types';

export type Screen = LazyExoticComponent<ComponentType<ScreenProps>>;

/** The explicit fallback when a route names a screen nobody registered. */
export const FALLBACK_SCREEN: Screen = lazy(() => import('./generated/Placeholder'));

/** Screens of the fixed routes (schemas/features.json `routes[].screen`). */
export const FIXED_SCREENS: Readonly<Record<string, Screen>> = {
  globalSearch: lazy(() => import('./GlobalSearch')),
  terms: lazy(() => import('./Terms')),
  incomingNavigation: lazy(() => import('./IncomingNavigation')),
  profile: lazy(() => import('./Profile')),
  resetPassword: lazy(() => import('./ResetPassword')),
  requestPasswordReset: lazy(() => import('./RequestPasswordReset')),
  error: lazy(() => import('./ErrorPage')),
  notFound: lazy(() => import('./NotFound')),
};

/**
 * Screens of generated features (`features[].screen`), keyed by screen name. Register a
 * real screen here to replace the placeholder; an unknown name gets FALLBACK_SCREEN.
 */
export const GENERATED_SCREENS: Readonly<Record<string, Screen>> = {
  placeholder: FALLBACK_SCREEN,
  masterdata: lazy(() => import('../masterdata/MasterDataScreen')),
  entityList: lazy(() => import('../masterdata/EntityListScreen')),
  dataImport: lazy(() => import('../imports/ImportScreen')),
  importLogs: lazy(() => import('../imports/ImportLogsScreen')),
};

export function fixedScreen(name: string | undefined): Screen {
  return (name !== undefined && FIXED_SCREENS[name]) || FALLBACK_SCREEN;
}

export function generatedScreen(name: string | undefined): Screen {
  return (name !== undefined && GENERATED_SCREENS[name]) || FALLBACK_SCREEN;
}
