import { createContext, useContext } from 'react';
import type { OutboundMessage } from './messages';

export interface FrameValue {
  /** The embedded frame announced readiness (guestIsReady). */
  ready: boolean;
  /** The frame announced its help module. */
  helpEnabled: boolean;
  attach(win: Window, origin: string): void;
  detach(win: Window): void;
  setReady(): void;
  setHelp(enabled: boolean): void;
  /** Sends to the embedded frame, on its origin only; nothing when no frame is shown. */
  post(message: OutboundMessage): void;
}

export const FrameContext = createContext<FrameValue | null>(null);

export function useFrame(): FrameValue {
  const f = useContext(FrameContext);
  if (!f) throw new Error('FrameContext is missing');
  return f;
}
