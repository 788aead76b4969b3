import type { FeatureIcon } from './types';

/** The features' icons as emoji: no icon font or image to download (the first load stays small). */
export const ICONS: Record<FeatureIcon, string> = {
  nfc: '📶', return: '↩️', qc: '✅', inventory: '📦', batch: '🧪', truck: '🚚', reception: '📥', outbound: '📤',
  request: '🔁', distributor: '🏬', transfer: '🔀', map: '📍', transporter: '🚛', bulk: '🛢️', bulkReception: '🏭',
};
