import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { ServicesContext, type Services } from '../app/services';
import { ShellContext, type ShellValue } from '../shell/shellContext';

/** For component tests: what a screen inside the shell reads (translations, services, the shell's registry and user). */
export function InShell({ i18n, services, shell, children }: { i18n: I18n; services: Services; shell: ShellValue; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ServicesContext.Provider value={services}>
        <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>
      </ServicesContext.Provider>
    </I18nextProvider>
  );
}
