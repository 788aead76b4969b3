import { useCallback, useEffect } from 'react';
import { useNavigate, type NavigateOptions } from 'react-router-dom';
import { useServices } from '../app/services';
import type { OutboundMessage } from './messages';

/** SPEC 2.1: before each navigation the main origin hears that the help module is disabled. */
export function postHelpDisabled(mainOrigin: string | undefined): void {
  const message: OutboundMessage = { type: 'helpDisabled' };
  const origin = mainOrigin || window.location.origin;
  try {
    (window.top ?? window).postMessage(message, origin);
  } catch {
    // A top window on another origin than the configured one simply does not receive it.
  }
}

/** navigate() preceded by the help-disabled notice; every in-app navigation goes through it. */
export function useAppNavigate(): (to: string, options?: NavigateOptions) => void {
  const navigate = useNavigate();
  const mainOrigin = useServices().config.deployment.settings.frame.mainOrigin;
  return useCallback((to: string, options?: NavigateOptions) => {
    postHelpDisabled(mainOrigin);
    navigate(to, options);
  }, [navigate, mainOrigin]);
}

/** Back and forward buttons are navigations too. */
export function useHelpNoticeOnHistory(): void {
  const mainOrigin = useServices().config.deployment.settings.frame.mainOrigin;
  useEffect(() => {
    const onPop = () => postHelpDisabled(mainOrigin);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [mainOrigin]);
}
