import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { resolveFrame, type RouteEntry } from '../../../engine/src/index';
import { useServices } from '../app/services';
import { useLanguage } from '../i18n/useLanguage';
import { useShell } from '../shell/shellContext';
import { useWarehouse } from '../shell/warehouseContext';
import { useBusyWhile } from '../shell/busy';
import { useToast } from '../toasts/toast';
import { useFrame } from './frameContext';
import { buildFrameUrl, originOf } from './frameUrl';
import { parseInbound } from './messages';
import { isTrustedOrigin, trustedOrigins } from './origins';
import { effectsOf, type Effect, type ProtocolContext } from './protocol';
import { useAppNavigate } from './navigation';

/** An external feature in the embedded frame, speaking the message protocol of SPEC 7. */
export function FeatureFrame({ route }: { route: RouteEntry }) {
  const { t } = useTranslation();
  const { config } = useServices();
  const { allowed, registry } = useShell();
  const warehouse = useWarehouse();
  const frame = useFrame();
  const toast = useToast();
  const navigate = useAppNavigate();
  const [lang] = useLanguage();
  const { search } = useLocation();
  const ref = useRef<HTMLIFrameElement>(null);
  const [loading, setLoading] = useState(true);
  useBusyWhile(loading);

  const settings = config.deployment.settings;
  // The server hands the addresses resolved for the origin it was reached at; resolving here too keeps a relative one working.
  const frameAt = useMemo(() => resolveFrame(settings.frame, window.location.origin), [settings.frame]);
  const src = useMemo(() => buildFrameUrl(frameAt, config.deployment.name, route, search), [frameAt, config.deployment.name, route, search]);
  const trusted = useMemo(() => trustedOrigins(frameAt, window.location.href), [frameAt]);

  // The latest state, read when a message arrives without re-subscribing on every change.
  const ctx = useRef<ProtocolContext>({ routes: allowed, feature: route, warehouse: warehouse.selected, warehouseList: [], language: lang, registry });
  ctx.current = { routes: allowed, feature: route, warehouse: warehouse.selected, warehouseList: warehouse.groups ?? [], language: lang, registry };

  const warehouseRef = useRef(warehouse);
  warehouseRef.current = warehouse;
  // A frame ready before the warehouse groups load gets its parentFrameData once they have.
  const pending = useRef<{ source: Window; origin: string } | null>(null);
  useEffect(() => {
    const p = pending.current;
    if (!p || warehouse.groups === null) return;
    pending.current = null;
    p.source.postMessage({ type: 'parentFrameData', payload: { warehouse: warehouse.selected, warehouseList: warehouse.groups } }, p.origin);
  }, [warehouse.groups, warehouse.selected]);

  const { attach, detach, setReady, setHelp } = frame;
  useEffect(() => {
    const win = ref.current?.contentWindow;
    const origin = originOf(src, window.location.href);
    if (!win || !origin) return;
    setLoading(true);
    attach(win, origin);
    return () => detach(win);
  }, [src, attach, detach]);

  useEffect(() => {
    const apply = (effect: Effect, e: MessageEvent) => {
      switch (effect.kind) {
        case 'reply':
          if (effect.message.type === 'parentFrameData' && warehouseRef.current.groups === null) {
            pending.current = { source: e.source as Window, origin: e.origin };
          } else {
            (e.source as Window).postMessage(effect.message, e.origin);
          }
          break;
        case 'ready':
          setReady();
          break;
        case 'navigate':
          navigate(effect.to);
          break;
        case 'toast':
          toast(effect.toast === 'invalidData'
            ? { severity: 'error', summary: t('toast.invalidData.summary'), detail: t('toast.invalidData.detail') }
            : { severity: 'warn', summary: t('toast.unavailable.summary'), detail: t('toast.unavailable.detail') });
          break;
        case 'clearWarehouse':
          warehouseRef.current.clear();
          break;
        case 'help':
          setHelp(effect.enabled);
          break;
      }
    };
    const onMessage = (e: MessageEvent) => {
      if (!isTrustedOrigin(e.origin, trusted) || e.source === null || e.source !== ref.current?.contentWindow) return;
      const msg = parseInbound(e.data);
      if (!msg) return;
      for (const effect of effectsOf(msg, ctx.current)) apply(effect, e);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [trusted, navigate, toast, t, setReady, setHelp]);

  return (
    <div className="tm-frame-wrap">
      <iframe
        ref={ref} src={src} className="tm-frame" title={t('shell.frame.title', { feature: route.name })}
        onLoad={() => setLoading(false)} data-feature={route.id}
        allow="clipboard-read; clipboard-write; geolocation; fullscreen"
      />
    </div>
  );
}
