import { useMemo } from 'react';
import { useServices } from '../app/services';
import { useShell } from '../shell/shellContext';
import { masterDataApi } from './api';

/** The master-data client and picker settings, from the shell's services and registry. */
export function useMasterData() {
  const { api } = useServices();
  const { registry, lang, principal } = useShell();
  const md = useMemo(() => masterDataApi(api), [api]);
  return { md, registry, lang, principal, settings: registry.deployment.settings };
}
