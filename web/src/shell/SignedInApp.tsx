import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from 'primereact/progressbar';
import type { Registry } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { useAuth } from '../auth/auth';
import { FrameProvider } from '../frame/FrameProvider';
import ErrorPage from '../screens/ErrorPage';
import { ToastProvider } from '../toasts/ToastProvider';
import { BusyProvider } from './busy';
import { ProfileProvider } from './ProfileProvider';
import { Shell } from './Shell';
import { ShellProvider } from './ShellProvider';
import { WarehouseProvider } from './WarehouseProvider';

/** The signed-in application: the whole registry, the user's access, then the shell. */
export default function SignedInApp() {
  const { t } = useTranslation();
  const { api, config } = useServices();
  const { access } = useAuth();
  const [registry, setRegistry] = useState<Registry | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    api.get<Registry>('/api/config').then(setRegistry).catch((e: unknown) => {
      console.error('config failed', e);
      setFailed(true);
    });
  }, [api]);
  useEffect(load, [load]);

  const { toast } = config.deployment.settings;
  if (failed) return <ErrorPage onRetry={load} />;
  if (!registry || !access.loaded) {
    return (
      <div className="tm-boot" role="status" aria-label={t('shell.loading')}>
        <div className="tm-boot__header" />
        <ProgressBar mode="indeterminate" className="tm-progress" />
      </div>
    );
  }
  return (
    <ToastProvider life={toast.lifeMs} baseZIndex={toast.baseZIndex}>
      <BusyProvider>
        <WarehouseProvider>
          <FrameProvider>
            <ProfileProvider>
              <ShellProvider registry={registry}>
                <Shell />
              </ShellProvider>
            </ProfileProvider>
          </FrameProvider>
        </WarehouseProvider>
      </BusyProvider>
    </ToastProvider>
  );
}
