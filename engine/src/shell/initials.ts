/**
 * SPEC 2.1: the first letters of up to two words of the display name, or of the e-mail's
 * local part split on dot, underscore or hyphen.
 */
export function initials(displayName: string | undefined | null, email: string | undefined | null, max = 2): string {
  const name = (displayName ?? '').trim();
  const words = name
    ? name.split(/\s+/)
    : (email ?? '').split('@')[0].split(/[._-]+/);
  return words
    .filter((w) => w.length > 0)
    .slice(0, max)
    .map((w) => Array.from(w)[0].toUpperCase())
    .join('');
}
