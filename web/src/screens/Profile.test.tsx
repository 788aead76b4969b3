// @vitest-environment happy-dom
import { act } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildRouteTable } from '../../../engine/src/index';
import { requireDefinitions } from '../../../definitions/read';
import { AuthContext, type AuthValue } from '../auth/auth';
import { createI18n } from '../i18n/i18n';
import { mountRoot } from '../masterdata/domTesting';
import { ProfileContext, type ProfileValue } from '../shell/profileContext';
import { ShellContext, type ShellValue } from '../shell/shellContext';
import { ToastContext } from '../toasts/toast';
import en from '../../../schemas/i18n/en.json';
import Profile from './Profile';

// @rjsf/primereact's ES build imports primereact's folders, which Node cannot resolve here; its Form is RJSF core's with PrimeReact widgets.
vi.mock('@rjsf/primereact', async () => {
  const core = await import('@rjsf/core');
  return { default: core.default, Templates: core.getDefaultRegistry().templates };
});

const registry = requireDefinitions(process.cwd());
const shell = (lang: string) => ({ registry, lang, routes: buildRouteTable(registry, 'en'), principal: { access: [], groups: [], selectedWarehouse: null }, allowed: [], menu: [] }) as unknown as ShellValue;
const auth = { session: null } as unknown as AuthValue;

let i18n: I18n;
beforeAll(async () => { i18n = await createI18n({ en }, 'en'); });
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

type Saved = Parameters<ProfileValue['save']>[0];

/** The profile screen as the shell shows it; `show` re-renders it with another profile or language, as the providers do. */
function mount() {
  const root = mountRoot();
  mounted.push(root.unmount);
  const saves: { body: Saved; ok(): void; fail(): void }[] = [];
  const save = (body: Saved) => new Promise<void>((resolve, reject) => { saves.push({ body, ok: resolve, fail: () => reject(new Error('offline')) }); });
  const show = (profile: Saved, lang = 'en') => root.render(
    <I18nextProvider i18n={i18n}>
      <AuthContext.Provider value={auth}>
        <ToastContext.Provider value={() => undefined}>
          <ShellContext.Provider value={shell(lang)}>
            <ProfileContext.Provider value={{ profile, loaded: true, save, chooseLanguage: () => undefined }}>
              <Profile />
            </ProfileContext.Provider>
          </ShellContext.Provider>
        </ToastContext.Provider>
      </AuthContext.Provider>
    </I18nextProvider>,
  );
  const select = (id: string) => root.container.querySelector<HTMLSelectElement>(`#root_${id}`)!;
  /** The option's label the select shows (RJSF's option values are indexes). */
  const shown = (id: string) => select(id).selectedOptions[0]?.textContent;
  const pick = (id: string, label: string) => act(() => {
    const s = select(id);
    s.value = [...s.options].find((o) => o.textContent === label)!.value;
    s.dispatchEvent(new Event('change', { bubbles: true }));
  });
  const submit = () => act(() => { root.container.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true })); });
  return { show, pick, shown, submit, saves, container: root.container };
}

const ENGLISH = { notification_channel: 'local', primary_fields: { language: 'en' } };

describe('the profile form keeps what the user chose', () => {
  it('while saving and after a failed save', async () => {
    const p = mount();
    p.show(ENGLISH);
    p.pick('notification_channel', 'App and Email');
    p.submit();
    expect(p.saves.map((s) => s.body.notification_channel)).toEqual(['email']);
    expect(p.container.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(true);
    expect(p.shown('notification_channel')).toBe('App and Email');
    await act(async () => { p.saves[0].fail(); });
    expect(p.container.querySelector<HTMLButtonElement>('button[type="submit"]')!.disabled).toBe(false);
    expect(p.shown('notification_channel')).toBe('App and Email');
  });

  it('until it is saved; then the form follows the profile', async () => {
    const p = mount();
    p.show(ENGLISH);
    p.pick('notification_channel', 'App and Email');
    p.submit();
    // The provider holds the saved profile before the save resolves.
    p.show({ ...ENGLISH, notification_channel: 'email' });
    await act(async () => { p.saves[0].ok(); });
    expect(p.shown('notification_channel')).toBe('App and Email');
    // The header saves another language afterwards: the form follows the profile.
    p.show({ notification_channel: 'email', primary_fields: { language: 'es' } }, 'es');
    expect(p.shown('primary_fields_language')).toBe('Español');
    expect(p.shown('notification_channel')).toBe('Aplicación y correo electrónico');
  });

  it('when the language changes and the header saves it to the profile', () => {
    const p = mount();
    p.show(ENGLISH);
    p.pick('notification_channel', 'App and Email');
    // The header's language menu: the interface language changes, then the profile it saved arrives.
    p.show(ENGLISH, 'es');
    expect(p.shown('notification_channel')).toBe('Aplicación y correo electrónico');
    p.show({ ...ENGLISH, primary_fields: { language: 'es' } }, 'es');
    expect(p.shown('notification_channel')).toBe('Aplicación y correo electrónico');
    // The field the user did not touch follows the profile.
    expect(p.shown('primary_fields_language')).toBe('Español');
  });
});
