/** Keys every stored record carries that only the server sets (a client or a file never does). */
export const SYSTEM_KEYS = ['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'sync'] as const;
