// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useToast, type ShowToast } from './toast';
import { ToastProvider } from './ToastProvider';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
let root: Root;
let show: ShowToast = () => undefined;

function Grab() {
  show = useToast();
  return null;
}

beforeEach(() => {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  act(() => root.render(<ToastProvider life={8000} baseZIndex={10000}><Grab /></ToastProvider>));
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const messages = () => [...document.querySelectorAll('.p-toast-message')];

describe('ToastProvider', () => {
  it('shows the severity, summary and detail above everything else', () => {
    act(() => show({ severity: 'warn', summary: 'Unavailable', detail: 'This action could not be performed, you may not have the required access.' }));
    const [m] = messages();
    expect(m.className).toContain('p-toast-message-warn');
    expect(m.textContent).toContain('Unavailable');
    expect(m.textContent).toContain('you may not have the required access.');
    const toast = document.querySelector<HTMLElement>('.p-toast')!;
    expect(Number(toast.style.zIndex)).toBeGreaterThanOrEqual(10000);
  });

  it('runs the optional action and hides the toast when asked', () => {
    const callback = vi.fn();
    act(() => show({ severity: 'info', summary: 'Saved', action: { label: 'Undo', callback, hide: true } }));
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Undo')!;
    act(() => button.click());
    expect(callback).toHaveBeenCalledTimes(1);
  });
});
