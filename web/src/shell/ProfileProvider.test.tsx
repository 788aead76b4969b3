// @vitest-environment happy-dom
import { act, useEffect } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Profile } from '../config/types';
import { createI18n } from '../i18n/i18n';
import { ServicesContext, type Services } from '../app/services';
import { storageKeys } from '../app/storage';
import { AuthContext, type AuthValue } from '../auth/auth';
import { FrameContext, type FrameValue } from '../frame/frameContext';
import { mountRoot } from '../masterdata/domTesting';
import { ProfileProvider } from './ProfileProvider';
import { useProfile, type ProfileValue } from './profileContext';

const keys = storageKeys('pp');

/**
 * The profile routes as the server answers them, each answer held until the test gives it (a slow
 * network): `server` is what the last PUT stored; `puts` what each PUT sent.
 */
function slowServer(initial: Profile) {
  let server = structuredClone(initial);
  const puts: Profile[] = [];
  const gets: (() => void)[] = [];
  const answers: ((ok: boolean) => void)[] = [];
  const api = {
    get: () => new Promise((resolve) => gets.push(() => resolve({ detail: structuredClone(server) }))),
    put: (_path: string, body: Profile) => {
      puts.push(structuredClone(body));
      return new Promise((resolve, reject) => answers.push((ok) => {
        if (!ok) { reject(new Error('network')); return; }
        server = structuredClone(body);
        resolve({ detail: structuredClone(body) });
      }));
    },
    invalidate: () => undefined,
  };
  const settle = () => act(async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0)); });
  return {
    api, puts, server: () => server,
    /** Answers the profile's GET. */
    arrive: async () => { gets.shift()!(); await settle(); },
    /** Answers the oldest PUT still waiting (the next one leaves only then). */
    answer: async (ok = true) => { answers.shift()!(ok); await settle(); },
    waiting: () => answers.length,
    settle,
  };
}

let i18n: I18n;
let ctx: ProfileValue;
function Grab() {
  const p = useProfile();
  useEffect(() => { ctx = p; });
  return <span data-testid="channel">{String(p.profile?.notification_channel)}</span>;
}

beforeEach(async () => {
  localStorage.clear();
  document.documentElement.lang = 'en';
  i18n = await createI18n({ en: {}, es: {}, fr: {} }, 'en');
});
const mounted: (() => void)[] = [];
afterEach(() => { while (mounted.length) mounted.pop()!(); });

function mount(server: ReturnType<typeof slowServer>, applied = true) {
  const services = { api: server.api, keys, config: { deployment: { settings: { timings: { languagePushDelayMs: 1 }, languages: { available: ['en', 'es'] } } } } } as unknown as Services;
  const auth = { session: { profileLanguageApplied: applied }, updateSession: () => undefined } as unknown as AuthValue;
  const frame = { post: () => undefined } as unknown as FrameValue;
  const root = mountRoot();
  mounted.push(root.unmount);
  root.render(
    <I18nextProvider i18n={i18n}>
      <ServicesContext.Provider value={services}>
        <AuthContext.Provider value={auth}>
          <FrameContext.Provider value={frame}>
            <ProfileProvider><Grab /></ProfileProvider>
          </FrameContext.Provider>
        </AuthContext.Provider>
      </ServicesContext.Provider>
    </I18nextProvider>,
  );
  return { channel: () => root.container.querySelector('[data-testid="channel"]')!.textContent };
}

const shown = () => document.documentElement.lang;
const nextTurn = () => new Promise((r) => setTimeout(r, 0));
/** A choice from the header; its save (if any) leaves on the next turn. */
const choose = (lang: 'en' | 'es' | 'fr') => act(async () => { ctx.chooseLanguage(lang); await nextTurn(); });
/** The profile form's Save; its request leaves on the next turn. Resolves to the save, to await once answered. */
async function formSave(body: Profile): Promise<{ done: Promise<void> }> {
  let done!: Promise<void>;
  await act(async () => { done = ctx.save(body); await nextTurn(); });
  return { done };
}
const ENGLISH: Profile = { notification_channel: 'local', primary_fields: { language: 'en' } };

describe('the profile and the interface language', () => {
  it('saves a language chosen before the profile arrived, and does not take it back', async () => {
    const server = slowServer(ENGLISH);
    mount(server, false);
    await choose('es');
    await server.arrive();
    expect(shown()).toBe('es');
    expect(server.puts.map((p) => p.primary_fields?.language)).toEqual(['es']);
    await server.answer();
    expect(server.server().primary_fields?.language).toBe('es');
    expect(shown()).toBe('es');
  });

  it('saves the latest of two choices made while the first was being saved, one after the other', async () => {
    const server = slowServer(ENGLISH);
    mount(server);
    await server.arrive();
    await choose('es');
    await choose('en');
    expect(server.waiting()).toBe(1);
    await server.answer();
    expect(shown()).toBe('en');
    await server.answer();
    expect(server.puts.map((p) => p.primary_fields?.language)).toEqual(['es', 'en']);
    expect(server.server().primary_fields?.language).toBe('en');
    expect(shown()).toBe('en');
  });

  it('keeps the channel a form save is changing when the header saves a language after it', async () => {
    const server = slowServer(ENGLISH);
    const screen = mount(server);
    await server.arrive();
    const saved = await formSave({ notification_channel: 'email', primary_fields: { language: 'en' } });
    await choose('es');
    await server.answer();
    await act(() => saved.done);
    await server.answer();
    expect(server.server()).toEqual({ notification_channel: 'email', primary_fields: { language: 'es' } });
    expect(screen.channel()).toBe('email');
    expect(shown()).toBe('es');
  });

  it('keeps the language the header is saving when a form save that did not change it follows', async () => {
    const server = slowServer(ENGLISH);
    mount(server);
    await server.arrive();
    await choose('es');
    // The form still shows the language it read (en); the user changed the channel only.
    const saved = await formSave({ notification_channel: 'email', primary_fields: { language: 'en' } });
    await server.answer();
    await server.answer();
    await act(() => saved.done);
    expect(server.server()).toEqual({ notification_channel: 'email', primary_fields: { language: 'es' } });
    expect(shown()).toBe('es');
  });

  it('applies a language changed in the form over an earlier header choice', async () => {
    const server = slowServer(ENGLISH);
    mount(server);
    await server.arrive();
    await choose('fr');
    const saved = await formSave({ notification_channel: 'local', primary_fields: { language: 'es' } });
    await server.answer();
    await act(() => saved.done);
    expect(server.server().primary_fields?.language).toBe('es');
    expect(shown()).toBe('es');
  });

  it('keeps the sign-in screen\'s language until its save succeeds, and forgets it for a later header choice', async () => {
    const server = slowServer(ENGLISH);
    localStorage.setItem(keys.languagePending, 'es');
    mount(server, false);
    await server.arrive();
    await server.answer(false);
    expect(localStorage.getItem(keys.languagePending)).toBe('es');
    await choose('en');
    expect(localStorage.getItem(keys.languagePending)).toBeNull();
  });

  it('forgets the sign-in screen\'s language once saved', async () => {
    const server = slowServer(ENGLISH);
    localStorage.setItem(keys.languagePending, 'es');
    mount(server, false);
    await server.arrive();
    await server.answer();
    expect(server.server().primary_fields?.language).toBe('es');
    expect(localStorage.getItem(keys.languagePending)).toBeNull();
  });

  it('applies the profile\'s language once per sign-in when nothing was chosen', async () => {
    const server = slowServer({ notification_channel: 'local', primary_fields: { language: 'es' } });
    mount(server, false);
    await server.arrive();
    expect(shown()).toBe('es');
    expect(server.puts).toEqual([]);
  });
});
