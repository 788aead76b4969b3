import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A React root in a fresh container of the test DOM (happy-dom): render, read, then unmount. */
export function mountRoot(): { container: HTMLElement; render(node: ReactNode): void; unmount(): void } {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  return {
    container,
    render: (node) => act(() => root.render(node)),
    unmount: () => {
      act(() => root.unmount());
      container.remove();
    },
  };
}
